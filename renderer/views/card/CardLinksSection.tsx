/**
 * The card's labels (from its board's) and assigned resources, as ticks. Each tick writes at
 * once and is one undoable edit; the PUT sends the whole new set (a sent list replaces it), so
 * the boxes wait while one is written: the next set is made from the card as stored.
 */
import { useId } from 'react';
import type { Label } from '../../../shared/resources/board.js';
import { useList } from '../../api/hooks.js';
import { resourceListQuery } from '../../api/queries.js';
import { boardColorHex } from '../../components/board-colors.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { useT } from '../../i18n/index.js';
import { byPriority } from '../boards/board-with-parts.js';
import type { CardDetail } from './card-api.js';
import { cardTitle, useCardEdit } from './use-card-edits.js';
import { usePendingTicks } from './use-pending-ticks.js';

type Links = 'labels' | 'resources';

export function CardLinksSection({ card, labels }: { card: CardDetail; labels: Label[] }) {
  const t = useT();
  const resources = useList('resource', resourceListQuery);
  const edit = useCardEdit(card);
  const ticks = usePendingTicks();
  const labelsId = useId();
  const resourcesId = useId();

  function toggle(links: Links, id: string, name: string, on: boolean) {
    const current = card[links].map((link) => ({ id: link.id }));
    const next = on ? [...current, { id }] : current.filter((link) => link.id !== id);
    const params = { card: cardTitle(card, t), label: name, resource: name };
    const description =
      links === 'labels'
        ? t(on ? 'card.history.addLabel' : 'card.history.removeLabel', params)
        : t(on ? 'card.history.assign' : 'card.history.unassign', params);
    ticks.tick(`${links}:${id}`, on, () => edit.mutateAsync({ description, changes: { [links]: next } }));
  }

  const stored = (links: Links, id: string) => card[links].some((link) => link.id === id);
  const shown = (links: Links, id: string) => ticks.shown(`${links}:${id}`, stored(links, id));
  const busy = ticks.writing || edit.isPending;
  const resourceChoices = resources.data?.data ?? [];

  return (
    <section className="card-section card-links" aria-label={t('card.links')}>
      <fieldset className="card-picks" aria-labelledby={labelsId} disabled={busy}>
        <legend id={labelsId}>{t('card.links.labels')}</legend>
        {labels.length === 0 && <p className="muted">{t('card.links.noLabels')}</p>}
        {byPriority(labels).map((label) => (
          <label key={label.id} className="card-pick">
            <input
              type="checkbox"
              checked={shown('labels', label.id)}
              onChange={(event) => toggle('labels', label.id, label.name, event.target.checked)}
            />
            <span className="card-pick__swatch" style={{ background: boardColorHex[label.color] }} aria-hidden="true" />
            {label.name}
          </label>
        ))}
      </fieldset>
      <fieldset className="card-picks" aria-labelledby={resourcesId} disabled={busy}>
        <legend id={resourcesId}>{t('card.links.resources')}</legend>
        {resources.isError && <ErrorNotice error={resources.error} onRetry={() => void resources.refetch()} />}
        {resources.data && resourceChoices.length === 0 && <p className="muted">{t('card.links.noResources')}</p>}
        {resourceChoices.map((resource) => (
          <label key={resource.id} className="card-pick">
            <input
              type="checkbox"
              checked={shown('resources', resource.id)}
              onChange={(event) => toggle('resources', resource.id, resource.name, event.target.checked)}
            />
            {resource.name}
          </label>
        ))}
        {/* Assigned resources the list does not show (archived ones): still there, still removable. */}
        {card.resources
          .filter((resource) => !resourceChoices.some((choice) => choice.id === resource.id))
          .map((resource) => (
            <label key={resource.id} className="card-pick">
              <input
                type="checkbox"
                checked={shown('resources', resource.id)}
                onChange={() => toggle('resources', resource.id, resource.name, false)}
              />
              {resource.name}
            </label>
          ))}
      </fieldset>
      {edit.error && <ErrorNotice error={edit.error} />}
    </section>
  );
}
