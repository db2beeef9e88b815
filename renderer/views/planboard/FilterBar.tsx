/**
 * Which cards show: by label, resource, status and text, and saved board views (`planboard`
 * views of the board, through the API) that bring a set of filters and the zoom back.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { BoardView } from '../../../shared/resources/board.js';
import { describeError } from '../../api/client.js';
import { apiPath } from '../../api/paths.js';
import { useApi } from '../../api/provider.js';
import { boardColorHex, type BoardColor } from '../../components/board-colors.js';
import { useT } from '../../i18n/index.js';
import { useNotices } from '../../state/notices.js';
import { usePlanboardStore } from '../../state/planboard.js';
import { filtersFromView, isFiltering, noFilters, type CardFilters } from './card-filter.js';
import { zooms, type Zoom } from './date-geometry.js';
import { planboardKeys } from './planboard-cache.js';

interface Choice {
  id: string;
  name: string;
  color?: BoardColor;
}

interface FilterBarProps {
  boardId: string;
  labels: readonly Choice[];
  resources: readonly Choice[];
  statuses: readonly Choice[];
}

export function FilterBar({ boardId, labels, resources, statuses }: FilterBarProps) {
  const t = useT();
  const filters = usePlanboardStore((state) => state.filters);
  const setFilters = usePlanboardStore((state) => state.setFilters);
  const change = (patch: Partial<CardFilters>) => setFilters({ ...filters, ...patch });
  return (
    <div className="pb-filters" role="group" aria-label={t('planboard.filters')}>
      <input
        type="search"
        className="pb-filters__text"
        aria-label={t('planboard.filter.text')}
        placeholder={t('planboard.filter.textPlaceholder')}
        value={filters.text}
        onChange={(event) => change({ text: event.target.value })}
      />
      <ChoiceFilter
        title={t('planboard.filter.labels')}
        groupLabel={t('planboard.filter.labelsGroup')}
        choices={labels}
        chosen={filters.labels}
        onChange={(ids) => change({ labels: ids })}
      />
      <ChoiceFilter
        title={t('planboard.filter.resources')}
        groupLabel={t('planboard.filter.resourcesGroup')}
        choices={resources}
        chosen={filters.resources}
        onChange={(ids) => change({ resources: ids })}
      />
      <ChoiceFilter
        title={t('planboard.filter.statuses')}
        groupLabel={t('planboard.filter.statusesGroup')}
        choices={statuses}
        chosen={filters.statuses}
        onChange={(ids) => change({ statuses: ids })}
      />
      {isFiltering(filters) && (
        <button type="button" className="button button--quiet" onClick={() => setFilters(noFilters)}>
          {t('planboard.filter.clear')}
        </button>
      )}
      <SavedViews boardId={boardId} />
    </div>
  );
}

interface ChoiceFilterProps {
  title: string;
  /** What the menu of choices is called for a screen reader ("Filter by labels"). */
  groupLabel: string;
  choices: readonly Choice[];
  chosen: readonly string[];
  onChange: (ids: string[]) => void;
}

function ChoiceFilter({ title, groupLabel, choices, chosen, onChange }: ChoiceFilterProps) {
  const t = useT();
  return (
    <details className="pb-choice">
      <summary className="button">
        {title}
        {chosen.length > 0 && ` (${chosen.length})`}
      </summary>
      <div className="pb-choice__menu" role="group" aria-label={groupLabel}>
        {choices.length === 0 && <p className="muted">{t('planboard.filter.none')}</p>}
        {choices.map((choice) => (
          <label key={choice.id} className="pb-choice__item">
            <input
              type="checkbox"
              checked={chosen.includes(choice.id)}
              onChange={(event) => onChange(event.target.checked ? [...chosen, choice.id] : chosen.filter((id) => id !== choice.id))}
            />
            {choice.color && <span className="swatch" style={{ background: boardColorHex[choice.color] }} aria-hidden="true" />}
            {choice.name}
          </label>
        ))}
      </div>
    </details>
  );
}

function SavedViews({ boardId }: { boardId: string }) {
  const t = useT();
  const { client } = useApi();
  const queryClient = useQueryClient();
  const notify = useNotices((state) => state.notify);
  const filters = usePlanboardStore((state) => state.filters);
  const zoom = usePlanboardStore((state) => state.zoom);
  const viewId = usePlanboardStore((state) => state.viewId);
  const applyView = usePlanboardStore((state) => state.applyView);
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  const path = apiPath`/v1/board/${boardId}/view`;
  const views = useQuery({
    queryKey: planboardKeys.views(boardId),
    queryFn: () => client.list<BoardView>(path, { filter: "type:eq:'planboard'", sort: 'name:asc', limit: 1000 }),
  });
  const save = useMutation({
    mutationFn: (viewName: string) => client.create<BoardView>(path, { name: viewName, type: 'planboard', filters, settings: { zoom } }),
    onSuccess: (view) => {
      applyView({ id: view.id, filters, zoom });
      setNaming(false);
      setName('');
      notify(t('planboard.view.saved', { name: view.name }));
      return queryClient.invalidateQueries({ queryKey: planboardKeys.views(boardId) });
    },
    onError: (error) => notify(t('planboard.view.saveFailed', { problem: describeError(error) }), 'error'),
  });
  const remove = useMutation({
    mutationFn: (id: string) => client.remove(path, id),
    onSuccess: () => {
      applyView({ id: '', filters: noFilters });
      return queryClient.invalidateQueries({ queryKey: planboardKeys.views(boardId) });
    },
    onError: (error) => notify(t('planboard.view.deleteFailed', { problem: describeError(error) }), 'error'),
  });
  const list = views.data?.data ?? [];

  return (
    <div className="pb-views">
      <select
        aria-label={t('planboard.view')}
        value={viewId ?? ''}
        onChange={(event) => {
          const view = list.find((candidate) => candidate.id === event.target.value);
          if (!view) applyView({ id: '', filters: noFilters });
          else {
            const saved = (view.settings as { zoom?: unknown }).zoom;
            applyView({
              id: view.id,
              filters: filtersFromView(view.filters),
              zoom: zooms.includes(saved as Zoom) ? (saved as Zoom) : undefined,
            });
          }
        }}
      >
        <option value="">{t('planboard.view.all')}</option>
        {list.map((view) => (
          <option key={view.id} value={view.id}>
            {view.name}
          </option>
        ))}
      </select>
      {views.isError && <span className="form-error">{describeError(views.error)}</span>}
      {viewId && (
        <button type="button" className="button button--quiet" onClick={() => remove.mutate(viewId)} disabled={remove.isPending}>
          {t('planboard.view.delete')}
        </button>
      )}
      {naming ? (
        <form
          className="pb-views__save"
          onSubmit={(event) => {
            event.preventDefault();
            if (name.trim()) save.mutate(name.trim());
          }}
          onKeyDown={(event) => {
            if (event.key === 'Escape') {
              event.stopPropagation();
              setNaming(false);
            }
          }}
        >
          <input
            aria-label={t('planboard.view.name')}
            value={name}
            maxLength={100}
            autoFocus
            onChange={(event) => setName(event.target.value)}
          />
          <button type="submit" className="button button--primary" disabled={save.isPending}>
            {t('planboard.view.save')}
          </button>
        </form>
      ) : (
        <button type="button" className="button" onClick={() => setNaming(true)}>
          {t('planboard.view.saveAs')}
        </button>
      )}
    </div>
  );
}
