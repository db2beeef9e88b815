/**
 * One plan per collection across replicas (issue 8). Every planning is a new plan: the cards it
 * makes and the collection carry its `plan_id` (plan-collection.ts). Two replicas that plan the
 * same collection while apart make two plans whose cards have different ids, and merging by id
 * would keep both sets (the collection's minutes counted twice on the board and in capacity).
 *
 * So the remote, where every change passes, keeps the first plan that reaches it. A replica's
 * action that would bring another plan to a collection whose planned cards are live there — a
 * card of another plan, or the collection's own plan write (`plan_id`: a planning, or null
 * when it goes back to the backlog) — is refused with 409 "… was planned on the server
 * meanwhile …", naming who planned it when the server knows, and the server's record.
 *
 * The rule holds for the action as a whole, checked once all of it is applied
 * (sync/action-checks.ts): the action's own cards are never "another plan". An undo of a plan
 * takes the collection off the board before it deletes the plan's cards, and a plan makes its
 * cards before it names them on the collection; only cards of a plan the action did not bring
 * or remove refuse it, which is a later change by someone else. The replica keeps its plan in the conflict list with
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
import type { Mutation } from '../../../shared/operations/sync.js';
import { shortDay } from '../../../shared/dates.js';
import type { StoredRecord } from '../../../shared/fields.js';
import type { RecordWrites } from '../../store/record-store.js';
import { ApiError } from '../errors.js';
import type { RequestContext, RuleAnswer } from '../resource.js';
import { tables } from '../tables.js';

type SyncedChange = (
  ctx: RequestContext,
  tx: RecordWrites,
  id: string,
  fields: Record<string, unknown>,
  current: StoredRecord | undefined,
) => RuleAnswer<void>;

/**
 * The plan the action brings to a collection (its plan write, else its new cards' plan), or
 * null when it takes the collection off the board.
 */
function planOfAction(action: readonly Mutation[], collectionId: string): string | null | undefined {
  const own = action.find((m) => m.resource === 'collection' && m.id.toLowerCase() === collectionId && m.fields && 'plan_id' in m.fields);
  if (own) return typeof own.fields!.plan_id === 'string' ? own.fields!.plan_id : null;
  for (const m of action) {
    const planId = m.fields?.plan_id;
    if (
      m.resource === 'card' &&
      m.op !== 'delete' &&
      String(m.fields?.collection_id).toLowerCase() === collectionId &&
      typeof planId === 'string'
    )
      return planId;
  }
  return undefined;
}

/**
 * Who made the server's plan and when, as far as the server knows: "by Pat Planner on Mon
 * 7 Dec" (a planner's command on the server), "from another computer on Mon 7 Dec" (a push).
 */
async function whoPlanned(tx: RecordWrites, card: StoredRecord): Promise<string> {
  const [made] = await tx.commands.changesAfter('card', card.id, 0);
  const command = made?.command_id ? await tx.commands.find(made.command_id) : undefined;
  const user = command?.actor ? await tx.get(tables.user, command.actor) : undefined;
  const name = [user?.firstname, user?.lastname].filter((part) => typeof part === 'string' && part !== '').join(' ');
  const who = name ? `by ${name}` : command ? 'on the server' : 'from another computer';
  return typeof card.created_at === 'string' ? `${who} on ${shortDay(card.created_at.slice(0, 10))}` : who;
}

/**
 * Refuses the action when the collection, as the action left it, has live cards of a plan the
 * action did not bring: two plans of one collection, or cards left on a collection the action
 * took off the board. The collection is locked first: two replicas' plans pushed at once
 * through two nodes of a team server take turns, and the second sees the first's cards (a push
 * that meets another's lock the other way round is run again: PostgresRecordStore.transaction).
 */
async function checkOnePlan(tx: RecordWrites, collectionId: string, action: readonly Mutation[]): Promise<void> {
  const ours = planOfAction(action, collectionId);
  if (ours === undefined) return;
  await tx.sync.getForSync(tables.collection, collectionId, { lock: true });
  const theirs = (await tx.getWhereIn(tables.card, 'collection_id', [collectionId])).filter(
    (card) => typeof card.plan_id === 'string' && card.plan_id !== ours,
  );
  if (theirs.length === 0) return;
  const collection = await tx.get(tables.collection, collectionId);
  const name = typeof collection?.name === 'string' ? `"${collection.name}"` : collectionId;
  const days = theirs
    .flatMap((c) => [c.start_date, c.end_date])
    .filter((d): d is string => typeof d === 'string')
    .sort();
  const span = days.length > 0 ? `, ${shortDay(days[0]!)}${days.at(-1) !== days[0] ? ` to ${shortDay(days.at(-1)!)}` : ''}` : '';
  const cards = `${theirs.length} card${theirs.length === 1 ? '' : 's'}${span}; ${await whoPlanned(tx, theirs[0]!)}`;
  throw ApiError.conflict(
    ours === null
      ? `Collection ${name} was planned again on the server (${cards}); taking it off the board was not applied there. ` +
          "Discard this change to keep the server's plan, or move the collection to the backlog again."
      : `Collection ${name} was planned on the server meanwhile (${cards}); this plan of it was not applied there. ` +
          "Discard this change to keep the server's plan, or plan the collection again to replace it.",
  );
}

/** The action's collections whose plan it changes, checked once the action is applied. */
function checkPlanAfterAction(ctx: RequestContext, collectionId: string): void {
  ctx.syncAction?.afterAction(`one plan of collection ${collectionId}`, (tx, action) => checkOnePlan(tx, collectionId, action));
}

/** A collection's plan write: a planning (`plan_id` set) or the backlog (`plan_id` null). */
export const checkSyncedCollection: SyncedChange = (ctx, _tx, id, fields, current) => {
  if (!('plan_id' in fields)) return;
  const planId = fields.plan_id;
  if ((typeof planId !== 'string' && planId !== null) || planId === (current?.plan_id ?? null)) return;
  checkPlanAfterAction(ctx, id.toLowerCase());
};

function refuseWithoutCard(what: string): never {
  throw ApiError.conflict(
    `${what} is not on the server (the server refused it: see its own conflict), so this was not applied there either.`,
  );
}

/** A card new to the remote: a card of a plan, or an edit of a card the remote never had. */
export const checkSyncedCard: SyncedChange = (ctx, _tx, _id, fields, current) => {
  if (current) return;
  // A create carries its collection; an edit alone would make a card of nothing but the edit.
  if (typeof fields.collection_id !== 'string') refuseWithoutCard('This card');
  if (typeof fields.plan_id === 'string') checkPlanAfterAction(ctx, fields.collection_id.toLowerCase());
};

/** A new link of a card (its activities, resources, labels). */
export const checkSyncedCardLink: SyncedChange = async function (_ctx, tx, _id, fields, current) {
  if (current || typeof fields.card_id !== 'string') return;
  // Deleted or not: a link of a card in the trash is kept for when it comes back.
  if (await tx.get(tables.card, fields.card_id.toLowerCase(), { includeDeleted: true })) return;
  refuseWithoutCard('The card this belongs to');
};
