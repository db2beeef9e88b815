/**
 * One plan per collection across replicas (issue 8). Every planning is a new plan: the cards it
 * makes and the collection carry its `plan_id` (plan-collection.ts). Two replicas that plan the
 * same collection while apart make two plans whose cards have different ids, and merging by id
 * would keep both sets (the collection's minutes counted twice on the board and in capacity).
 *
 * So the remote, where every change passes, keeps the first plan that reaches it. A replica's
 * change that would bring another plan to a collection whose planned cards are live there — a
 * card of another plan, or the collection's own plan write (`plan_id`: a planning, or null
 * when it goes back to the backlog) — is refused with 409 "… was planned on the server
 * meanwhile …" and the server's record. The replica keeps its plan in the conflict list with
 * its data and shows the server's plan meanwhile (docs/architecture.md "Sync": nothing is dropped
 * silently). A planning that saw the server's plan deleted its cards first, so it replaces it
 * like any re-planning: to prefer the replica's plan, plan the collection there again.
 *
 * A card added by hand has no plan and is never refused for this. What a replica did next to a
 * card the remote refused — an edit of it, a link of it — is refused too: the remote does not
 * have the card, and would otherwise make a stray card of an edit, or keep a link pointing at
 * nothing. (The collection's summary, which such an edit also rewrites on the replica, is the
 * remote's to recompute from the cards it has: see `afterSynced` of cards and collections.)
 */
import type { StoredRecord } from '../../store/environment-store.js';
import { ApiError } from '../errors.js';
import type { RequestContext } from '../resource.js';
import { get, getWhereIn, lock, type Steps } from '../store-steps.js';
import { tables } from '../tables.js';

type SyncedChange = (ctx: RequestContext, id: string, fields: Record<string, unknown>, current: StoredRecord | undefined) => Steps<void>;

/**
 * Refuses `what` when the collection has live cards of a plan other than `planId` here. The
 * collection is locked first: two replicas' plans pushed at once through two nodes of a team
 * server take turns, and the second sees the first's cards (a push that meets another's lock
 * the other way round is run again: PostgresRecordStore.transaction).
 */
function* refuseSecondPlan(collectionId: string, planId: string | null, what: string): Steps<void> {
  yield* lock(tables.collection, collectionId);
  const theirs = (yield* getWhereIn(tables.card, 'collection_id', [collectionId])).filter(
    (card) => typeof card.plan_id === 'string' && card.plan_id !== planId,
  );
  if (theirs.length === 0) return;
  const collection = yield* get(tables.collection, collectionId);
  const name = typeof collection?.name === 'string' ? `"${collection.name}"` : collectionId;
  const starts = theirs
    .map((c) => c.start_date)
    .filter((d): d is string => d !== null)
    .sort();
  const ends = theirs
    .map((c) => c.end_date)
    .filter((d): d is string => d !== null)
    .sort();
  const span = starts.length > 0 && ends.length > 0 ? `, from ${starts[0]} to ${ends[ends.length - 1]}` : '';
  throw ApiError.conflict(
    `Collection ${name} was planned on the server meanwhile (${theirs.length} card${theirs.length === 1 ? '' : 's'}${span}); ${what} was not applied there. ` +
      "Discard this change to keep the server's plan, or plan the collection again to replace it.",
  );
}

/** A collection's plan write: a planning (`plan_id` set) or the backlog (`plan_id` null). */
export const checkSyncedCollection: SyncedChange = function* (_ctx, id, fields, current) {
  if (!('plan_id' in fields)) return;
  const planId = fields.plan_id;
  if ((typeof planId !== 'string' && planId !== null) || planId === (current?.plan_id ?? null)) return;
  yield* refuseSecondPlan(id, planId, planId === null ? 'taking it off the board' : 'this plan of it');
};

function refuseWithoutCard(what: string): never {
  throw ApiError.conflict(
    `${what} is not on the server (the server refused it: see its own conflict), so this was not applied there either.`,
  );
}

/** A card new to the remote: a card of a plan, or an edit of a card the remote never had. */
export const checkSyncedCard: SyncedChange = function* (_ctx, _id, fields, current) {
  if (current) return;
  // A create carries its collection; an edit alone would make a card of nothing but the edit.
  if (typeof fields.collection_id !== 'string') refuseWithoutCard('This card');
  if (typeof fields.plan_id === 'string') yield* refuseSecondPlan(fields.collection_id, fields.plan_id, 'this card of another plan of it');
};

/** A new link of a card (its activities, resources, labels). */
export const checkSyncedCardLink: SyncedChange = function* (_ctx, _id, fields, current) {
  if (current || typeof fields.card_id !== 'string') return;
  // Deleted or not: a link of a card in the trash is kept for when it comes back.
  if (yield* get(tables.card, fields.card_id.toLowerCase(), { includeDeleted: true })) return;
  refuseWithoutCard('The card this belongs to');
};
