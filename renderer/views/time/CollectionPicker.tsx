/**
 * The time filters' collection: a search box rather than a list of every collection (a busy
 * shop has hundreds). Typing asks the API for the first matches by name (of the chosen board
 * only, when one is chosen); arrows and Enter pick one; the clear button goes back to all
 * collections. A collection without a name reads as such, never as its id.
 */
import { X } from 'lucide-react';
import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { queryKeys, useList } from '../../api/hooks.js';
import { useApi } from '../../api/provider.js';
import { Field } from '../../components/Field.js';
import { useDebouncedValue } from '../../components/use-debounced-value.js';
import { useT } from '../../i18n/index.js';
import { textSearchFilter } from '../../../shared/filter.js';

const shown = 30;

interface CollectionPickerProps {
  /** The chosen collection's id; '' is all collections. */
  value: string;
  boardId: string;
  onChange(id: string): void;
}

export function CollectionPicker({ value, boardId, onChange }: CollectionPickerProps) {
  const t = useT();
  const listId = useId();
  const [text, setText] = useState<string | null>(null);
  const [active, setActive] = useState(0);
  const search = useDebouncedValue(text ?? '', 200);
  const open = text !== null;
  const filter = [boardId ? `board_id:eq:'${boardId}'` : null, textSearchFilter(search, ['name'])].filter(Boolean).join(',and,');
  const found = useList('collection', { sort: 'name:asc', limit: shown, ...(filter ? { filter } : {}) });
  const { client } = useApi();
  const chosen = useQuery({
    queryKey: queryKeys.record('collection', value),
    enabled: value !== '',
    queryFn: () => client.get<{ name: string | null }>('/v1/collection', value),
  });
  const options = open ? (found.data?.data ?? []) : [];
  const nameOf = (collection: { name: string | null }) => collection.name || t('backlog.untitled');
  const chosenName = value ? (chosen.data ? nameOf(chosen.data) : '…') : t('filters.allCollections');

  function pick(id: string) {
    onChange(id);
    setText(null);
  }

  return (
    <Field label={t('filters.collection')} className="collection-picker">
      {(control) => (
        <div className="collection-picker__box">
          <input
            {...control}
            role="combobox"
            aria-expanded={open}
            aria-controls={listId}
            aria-autocomplete="list"
            aria-activedescendant={open && options[active] ? `${listId}-${active}` : undefined}
            autoComplete="off"
            placeholder={t('filters.findCollection')}
            value={text ?? (value ? chosenName : '')}
            onFocus={(event) => event.currentTarget.select()}
            onChange={(event) => {
              setText(event.target.value);
              setActive(0);
            }}
            onBlur={() => setText(null)}
            onKeyDown={(event) => {
              if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
                event.preventDefault();
                if (!open) return setText('');
                const step = event.key === 'ArrowDown' ? 1 : -1;
                setActive(Math.min(Math.max(active + step, 0), Math.max(options.length - 1, 0)));
              } else if (event.key === 'Enter' && open) {
                event.preventDefault();
                if (options[active]) pick(options[active].id);
              } else if (event.key === 'Escape' && open) {
                event.stopPropagation();
                setText(null);
              }
            }}
          />
          {value && (
            <button
              type="button"
              className="collection-picker__clear"
              aria-label={t('filters.allCollections')}
              title={t('filters.allCollections')}
              onClick={() => pick('')}
            >
              <X aria-hidden="true" size={14} />
            </button>
          )}
          {open && (
            <ul id={listId} role="listbox" className="collection-picker__list" aria-label={t('filters.collection')}>
              {options.map((collection, index) => (
                <li
                  key={collection.id}
                  id={`${listId}-${index}`}
                  role="option"
                  aria-selected={index === active}
                  className={index === active ? 'collection-picker__option is-active' : 'collection-picker__option'}
                  // Before the input's blur closes the list.
                  onPointerDown={(event) => {
                    event.preventDefault();
                    pick(collection.id);
                  }}
                >
                  {nameOf(collection)}
                </li>
              ))}
              {found.data && options.length === 0 && <li className="muted collection-picker__option">{t('filters.noCollection')}</li>}
            </ul>
          )}
        </div>
      )}
    </Field>
  );
}
