/**
 * Batch commands on cards (docs/API.md "Commands and undo"): move or resize a set of cards,
 * and add or remove labels or resources on a set. Each runs inside one command (the route
 * opens it); every card is written through the ordinary record write (checks, change log,
 * sync outbox, webhooks, change events), as a PUT of that card would.
 */
import { isUuid } from '../../../shared/ids.js';
import type { FieldProblem } from '../../../shared/errors.js';
import type { cardSpec } from '../../../shared/resources/card.js';
import type { StoredOf } from '../../../shared/fields.js';
import type { TableDef } from '../../store/table-def.js';
import type { RecordWrites } from '../../store/record-store.js';
import { ApiError } from '../errors.js';
import { followDependenciesOfSet } from '../planning/card-set-moves.js';
import { updateRecord } from '../records.js';
import type { RequestContext } from '../resource.js';
import { cardModule } from '../resources/card.js';
import { tables } from '../tables.js';
import { writeEachIn } from './batch.js';

/** The fields a drag or a resize on the planboard sets. */
export interface CardMove {
  id: string;
  /** Some of `moveFields` (shared/operations/commands.ts), as a card's PUT takes them. */
  fields: Record<string, unknown>;
}

async function findCard(tx: RecordWrites, id: string): Promise<StoredOf<typeof cardSpec>> {
  // Undefined for an id that is no uuid, as findRecord answers 404 for one; through the typed card table.
  const card = isUuid(id) ? await tx.get(tables.card, id.toLowerCase()) : undefined;
  if (!card) throw ApiError.notFound(`no card with id ${id}`);
  return card;
}

/**
 * Moves every card of the set where it is sent, then applies the board's dependency behaviour
 * once for the whole set (planning/card-set-moves.ts), not once per card. A refused item is
 * named under `path` (`cards.3.start_date`).
 */
export async function moveCards(ctx: RequestContext, tx: RecordWrites, moves: readonly CardMove[], path = 'cards'): Promise<void> {
  const collecting: RequestContext = { ...ctx, cardMoves: [] };
  await writeEachIn(tx, moves, path, async (move) => {
    const card = await findCard(tx, move.id);
    await updateRecord(collecting, tx, cardModule, card.id, move.fields, { collection_id: card.collection_id });
  });
  await followDependenciesOfSet(tx, collecting.cardMoves!);
}

export interface LinkChange {
  cards: readonly string[];
  add: readonly string[];
  remove: readonly string[];
}

/** How a card's links to labels or resources are kept (the card's `labels` / `resources`). */
// Typed as plain handles: the link is read by its column names, which the kinds share.
const linkKinds: Record<'labels' | 'resources', { link: TableDef; targetKey: string; target: TableDef; title: string }> = {
  labels: { link: tables.card_label, targetKey: 'label_id', target: tables.label, title: 'label' },
  resources: { link: tables.card_resource, targetKey: 'resource_id', target: tables.resource, title: 'resource' },
};

async function checkTargets(tx: RecordWrites, kind: keyof typeof linkKinds, change: LinkChange): Promise<void> {
  const { target, title } = linkKinds[kind];
  const problems: FieldProblem[] = [];
  for (const list of ['add', 'remove'] as const) {
    for (const [index, id] of change[list].entries()) {
      if (!isUuid(id) || !(await tx.get(target, id.toLowerCase())))
        problems.push({ field: `${list}.${index}`, description: `${list}.${index} names no ${title} with id ${id}` });
    }
  }
  if (problems.length > 0) throw ApiError.unprocessable(problems);
}

/**
 * Adds and removes labels or resources on every card of the set: each card is written with its
 * new set of links, as a PUT with `labels` (or `resources`) would. A card whose links do not
 * change is not written.
 */
export async function linkCards(ctx: RequestContext, tx: RecordWrites, kind: keyof typeof linkKinds, change: LinkChange): Promise<void> {
  await checkTargets(tx, kind, change);
  const { link, targetKey } = linkKinds[kind];
  const add = change.add.map((id) => id.toLowerCase());
  const remove = new Set(change.remove.map((id) => id.toLowerCase()));
  await writeEachIn(tx, change.cards, 'cards', async (id) => {
    const card = await findCard(tx, id);
    // A link's target key is a required uuid column (shared/resources/card.ts).
    const current = (await tx.getWhereIn(link, 'card_id', [card.id])).map((l) => l[targetKey] as string);
    const wanted = [...new Set([...current, ...add])].filter((target) => !remove.has(target));
    if (wanted.length === current.length && wanted.every((target) => current.includes(target))) return;
    const links = { [kind]: wanted.map((target) => ({ id: target })) };
    await updateRecord(ctx, tx, cardModule, card.id, links, { collection_id: card.collection_id });
  });
}
