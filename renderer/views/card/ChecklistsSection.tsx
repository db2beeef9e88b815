/**
 * The card's checklists with their items: tick, rename and delete items, add items, add a
 * checklist (empty, or copied from one of the board's templates) and delete one. A tick shows
 * at once and is put back if the API refuses it (see use-pending-ticks.ts).
 */
import { useId, useState, type FormEvent } from 'react';
import type { BoardChecklist } from '../../../shared/resources/board.js';
import type { ChecklistItem } from '../../../shared/resources/checklist.js';
import { fieldErrors, formErrors } from '../../api/client.js';
import { ConfirmDelete } from '../../components/ConfirmDelete.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Field, Hidden } from '../../components/Field.js';
import { useT } from '../../i18n/index.js';
import type { CardRef } from '../../api/paths.js';
import type { CardDetail, ChecklistWithItems } from './card-api.js';
import { byPriority } from '../boards/board-with-parts.js';
import { cardPanelKeys, useChecklists, usePanelWrite } from './card-queries.js';
import { usePendingTicks } from './use-pending-ticks.js';

export function ChecklistsSection({ card, templates }: { card: CardDetail; templates: BoardChecklist[] }) {
  const t = useT();
  const titleId = useId();
  const ref: CardRef = { id: card.id, collection_id: card.collection_id };
  const checklists = useChecklists(ref);
  const lists = checklists.data ?? [];

  return (
    <section className="card-section card-checklists" aria-labelledby={titleId}>
      <h3 id={titleId} className="card-section__title">
        {t('card.checklists')}
      </h3>
      {checklists.isError && <ErrorNotice error={checklists.error} onRetry={() => void checklists.refetch()} />}
      {checklists.data && lists.length === 0 && <p className="muted">{t('card.checklists.none')}</p>}
      {lists.map((checklist) => (
        <ChecklistView key={checklist.id} card={ref} checklist={checklist} />
      ))}
      <NewChecklistForm card={ref} templates={templates} position={lists.length} />
    </section>
  );
}

function ChecklistView({ card, checklist }: { card: CardRef; checklist: ChecklistWithItems }) {
  const t = useT();
  const ticks = usePendingTicks();
  const items = [...checklist.items]
    .sort((a, b) => a.position - b.position || a.created_at.localeCompare(b.created_at))
    .map((item) => ({ ...item, checked: ticks.shown(item.id, item.checked) }));
  const done = items.filter((item) => item.checked).length;
  const [newItem, setNewItem] = useState('');
  const refresh = [cardPanelKeys.checklists(card.id)] as const;

  const tick = usePanelWrite(
    (api, { item, checked }: { item: ChecklistItem; checked: boolean }) => api.updateItem(card, checklist.id, item.id, { checked }),
    refresh,
  );
  const add = usePanelWrite(
    (api, description: string) => api.addItem(card, checklist.id, { description, position: nextPosition(items) }),
    refresh,
  );
  const removeList = usePanelWrite((api) => api.removeChecklist(card, checklist.id), refresh);

  function setChecked(item: ChecklistItem, checked: boolean) {
    ticks.tick(item.id, checked, () => tick.mutateAsync({ item, checked }));
  }

  function addItem(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const description = newItem.trim();
    if (!description) return;
    add.mutate(description, { onSuccess: () => setNewItem('') });
  }

  return (
    <section className="card-checklist" aria-label={t('card.checklist', { name: checklist.name })}>
      <div className="card-checklist__header">
        <h4 className="card-checklist__name">{checklist.name}</h4>
        <span className="muted" aria-label={t('card.checklist.progress', { done, total: items.length })}>
          {done}/{items.length}
        </span>
        <ConfirmDelete
          name={t('card.checklist.deleteName', { name: checklist.name })}
          pending={removeList.isPending}
          onConfirm={() => removeList.mutate(undefined)}
        />
      </div>
      {removeList.error && <ErrorNotice error={removeList.error} />}
      <ul className="card-checklist__items">
        {items.map((item) => (
          <ChecklistItemRow
            key={item.id}
            card={card}
            checklistId={checklist.id}
            item={item}
            onCheck={(checked) => setChecked(item, checked)}
          />
        ))}
      </ul>
      {tick.error && <ErrorNotice error={tick.error} />}
      <form className="card-inline-form" onSubmit={addItem} noValidate>
        <Field
          label={
            <>
              {t('card.checklist.newItem')}
              <Hidden> {t('card.checklist.newItemFor', { name: checklist.name })}</Hidden>
            </>
          }
          error={fieldErrors(add.error).description}
          className="field--grow"
        >
          {(control) => (
            <input
              {...control}
              value={newItem}
              maxLength={500}
              autoComplete="off"
              onChange={(event) => {
                setNewItem(event.target.value);
                if (add.error) add.reset();
              }}
            />
          )}
        </Field>
        <button type="submit" className="button" disabled={!newItem.trim() || add.isPending}>
          {t('card.checklist.addItem')}
        </button>
      </form>
      {formErrors(add.error, ['description']).map((message) => (
        <p key={message} className="form-error" role="alert">
          {message}
        </p>
      ))}
    </section>
  );
}

function ChecklistItemRow({
  card,
  checklistId,
  item,
  onCheck,
}: {
  card: CardRef;
  checklistId: string;
  item: ChecklistItem;
  onCheck: (checked: boolean) => void;
}) {
  const t = useT();
  const [renaming, setRenaming] = useState(false);
  const [text, setText] = useState(item.description);
  const refresh = [cardPanelKeys.checklists(card.id)] as const;
  const rename = usePanelWrite((api, description: string) => api.updateItem(card, checklistId, item.id, { description }), refresh);
  const remove = usePanelWrite((api) => api.removeItem(card, checklistId, item.id), refresh);

  if (renaming) {
    return (
      <li className="card-checklist__item">
        <form
          className="card-inline-form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            rename.mutate(text.trim(), { onSuccess: () => setRenaming(false) });
          }}
          onKeyDown={(event) => {
            if (event.key !== 'Escape') return;
            // Escape belongs to this form; it must not also close the panel.
            event.preventDefault();
            setRenaming(false);
            rename.reset();
          }}
        >
          <Field
            label={
              <>
                {t('card.checklist.renameLabel')}
                <Hidden> {item.description}</Hidden>
              </>
            }
            error={fieldErrors(rename.error).description}
            className="field--grow"
          >
            {(control) => (
              <input
                {...control}
                value={text}
                maxLength={500}
                autoFocus
                autoComplete="off"
                onChange={(event) => setText(event.target.value)}
              />
            )}
          </Field>
          <button type="submit" className="button" disabled={rename.isPending}>
            {t('card.checklist.saveName')}
          </button>
          <button type="button" className="button" onClick={() => setRenaming(false)}>
            {t('common.cancel')}
          </button>
        </form>
      </li>
    );
  }
  return (
    <li className={`card-checklist__item${item.checked ? ' is-checked' : ''}`}>
      <label className="card-pick">
        <input type="checkbox" checked={item.checked} onChange={(event) => onCheck(event.target.checked)} />
        <span className="card-checklist__text">{item.description}</span>
      </label>
      <button
        type="button"
        className="button button--quiet"
        aria-label={t('card.checklist.renameItem', { item: item.description })}
        onClick={() => {
          setText(item.description);
          setRenaming(true);
        }}
      >
        {t('card.checklist.rename')}
      </button>
      <button
        type="button"
        className="button button--quiet"
        aria-label={t('card.checklist.deleteItem', { item: item.description })}
        disabled={remove.isPending}
        onClick={() => remove.mutate(undefined)}
      >
        {t('common.delete')}
      </button>
      {remove.error && <ErrorNotice error={remove.error} />}
    </li>
  );
}

function NewChecklistForm({ card, templates, position }: { card: CardRef; templates: BoardChecklist[]; position: number }) {
  const t = useT();
  const [name, setName] = useState('');
  const [templateId, setTemplateId] = useState('');
  const add = usePanelWrite(
    (api, body: { name?: string; board_checklist_id?: string }) => api.addChecklist(card, { ...body, position }),
    [cardPanelKeys.checklists(card.id)],
  );

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const trimmed = name.trim();
    // With a template the name may stay blank: the checklist takes the template's.
    if (!trimmed && !templateId) return;
    add.mutate(
      { ...(trimmed ? { name: trimmed } : {}), ...(templateId ? { board_checklist_id: templateId } : {}) },
      {
        onSuccess: () => {
          setName('');
          setTemplateId('');
        },
      },
    );
  }

  const errors = fieldErrors(add.error);
  return (
    <form className="card-new-checklist" aria-label={t('card.checklists.new')} onSubmit={submit} noValidate>
      <Field label={t('card.checklists.name')} error={errors.name}>
        {(control) => (
          <input {...control} value={name} maxLength={150} autoComplete="off" onChange={(event) => setName(event.target.value)} />
        )}
      </Field>
      {templates.length > 0 && (
        <Field label={t('card.checklists.template')} error={errors.board_checklist_id}>
          {(control) => (
            <select {...control} value={templateId} onChange={(event) => setTemplateId(event.target.value)}>
              <option value="">{t('card.checklists.noTemplate')}</option>
              {byPriority(templates).map((template) => (
                <option key={template.id} value={template.id}>
                  {template.name}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
      <button type="submit" className="button" disabled={(!name.trim() && !templateId) || add.isPending}>
        {t('card.checklists.add')}
      </button>
      {formErrors(add.error, ['name', 'board_checklist_id']).map((message) => (
        <p key={message} className="form-error" role="alert">
          {message}
        </p>
      ))}
    </form>
  );
}

function nextPosition(items: readonly ChecklistItem[]): number {
  return items.reduce((max, item) => Math.max(max, item.position + 1), 0);
}
