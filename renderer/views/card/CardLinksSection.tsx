/**
 * The card's labels (from its board's) and assigned resources, as ticks. Each tick writes at
 * once and is one undoable edit; the PUT sends the whole new set (a sent list replaces it).
 */
import { useId } from 'react';
import type { Label } from '../../../shared/resources/board.js';
import { useList } from '../../api/hooks.js';
import { resourceListQuery } from '../../api/queries.js';
import { boardColorHex } from '../../components/board-colors.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { byPriority } from '../boards/board-with-parts.js';
import type { CardDetail } from './card-api.js';
import { cardTitle, useCardEdit } from './use-card-edits.js';

type Links = 'labels' | 'resources';

export function CardLinksSection({ card, labels }: { card: CardDetail; labels: Label[] }) {
  const resources = useList('resource', resourceListQuery);
  const edit = useCardEdit(card);
  const labelsId = useId();
  const resourcesId = useId();

  function toggle(links: Links, id: string, name: string, on: boolean) {
    const current = card[links].map((link) => ({ id: link.id }));
    const next = on ? [...current, { id }] : current.filter((link) => link.id !== id);
    const title = cardTitle(card);
    const description =
      links === 'labels'
        ? on ? `Add label ${name} to ${title}` : `Remove label ${name} from ${title}`
        : on ? `Assign ${name} to ${title}` : `Unassign ${name} from ${title}`;
    edit.mutate({ description, changes: { [links]: next }, before: { [links]: current } });
  }

  // A tick shows at once: while it is written, the set being written is what the boxes show.
  const writing = edit.isPending ? edit.variables?.changes : undefined;
  const shown = (links: Links) => new Set(((writing?.[links] as { id: string }[] | undefined) ?? card[links]).map((link) => link.id));
  const hasLabel = shown('labels');
  const hasResource = shown('resources');
  const resourceChoices = resources.data?.data ?? [];

  return (
    <section className="card-section card-links" aria-label="Labels and resources">
      <fieldset className="card-picks" aria-labelledby={labelsId} disabled={edit.isPending}>
        <legend id={labelsId}>Labels</legend>
        {labels.length === 0 && <p className="muted">The board has no labels.</p>}
        {byPriority(labels).map((label) => (
          <label key={label.id} className="card-pick">
            <input type="checkbox" checked={hasLabel.has(label.id)} onChange={(event) => toggle('labels', label.id, label.name, event.target.checked)} />
            <span className="card-pick__swatch" style={{ background: boardColorHex[label.color] }} aria-hidden="true" />
            {label.name}
          </label>
        ))}
      </fieldset>
      <fieldset className="card-picks" aria-labelledby={resourcesId} disabled={edit.isPending}>
        <legend id={resourcesId}>Resources</legend>
        {resources.isError && <ErrorNotice error={resources.error} onRetry={() => void resources.refetch()} />}
        {resources.data && resourceChoices.length === 0 && <p className="muted">No resources yet.</p>}
        {resourceChoices.map((resource) => (
          <label key={resource.id} className="card-pick">
            <input
              type="checkbox"
              checked={hasResource.has(resource.id)}
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
              <input type="checkbox" checked onChange={() => toggle('resources', resource.id, resource.name, false)} />
              {resource.name}
            </label>
          ))}
      </fieldset>
      {edit.error && <ErrorNotice error={edit.error} />}
    </section>
  );
}
