/**
 * The Planning API calls the planboard makes beyond plain CRUD: cards of a board over a date
 * range, moving and deleting cards under their collection, planning a collection and sending
 * it back, the capacity per stage and day. Each answers the API's record, or throws
 * `ApiRequestError` with the API's own message.
 */
import type { ListEnvelope } from '../../../shared/list.js';
import { maxLimit } from '../../../shared/list.js';
import type { BodyOf } from '../../../shared/operation.js';
import type { Card } from '../../../shared/resources/card.js';
import { moveToBacklogOperation, planCollectionOperation, type PlannedCollection } from '../../../shared/operations/planning.js';
import type { Collection } from '../../../shared/resources/collection.js';
import { send } from '../../api/client.js';
import { sendOperationCommand } from '../../api/commands.js';
import { apiPath, cardPath, type CardRef } from '../../api/paths.js';
import type { Transport } from '../../api/transport.js';
import type { CapacityResponse } from './capacity.js';
import { cardListShape, type PlanCard } from './plan-card.js';

export type { PlannedCollection } from '../../../shared/operations/planning.js';

/** Cards of a board that touch `from` … `to`, every page of them. */
export async function fetchBoardCards(transport: Transport, boardId: string, from: string, to: string): Promise<PlanCard[]> {
  const filter = `board_id:eq:'${boardId}',and,end_date:gte:'${from}',and,start_date:lte:'${to}'`;
  const cards: PlanCard[] = [];
  for (let offset = 0; ; offset += maxLimit) {
    const page = await send<ListEnvelope<PlanCard>>(transport, {
      method: 'GET',
      path: '/v1/card',
      query: { filter, limit: String(maxLimit), offset: String(offset), ...cardListShape },
    });
    cards.push(...page.data);
    if (page.data.length < maxLimit || cards.length >= page.count) return cards;
  }
}

/** The cards of one collection (all fields, no relations). */
export async function fetchCollectionCards(transport: Transport, collectionId: string): Promise<Card[]> {
  const page = await send<ListEnvelope<Card>>(transport, {
    method: 'GET',
    path: apiPath`/v1/collection/${collectionId}/card`,
    query: { limit: String(maxLimit) },
  });
  return page.data;
}

export async function deleteCard(transport: Transport, card: CardRef): Promise<void> {
  await send(transport, { method: 'DELETE', path: cardPath(card) });
}

/** Brings a deleted card back from the trash. */
export async function restoreCard(transport: Transport, cardId: string): Promise<void> {
  await send(transport, { method: 'POST', path: apiPath`/v1/trash/card/${cardId}/restore` });
}

/**
 * The planning call's body as shared/operations/planning.ts declares it, but the dry run (a
 * choice of the call, not of the plan): `stage_id` puts everything on that stage, `reverse`
 * ends on `end` or the due date, `capacity: 'finite'` plans only into free capacity
 * (docs/API.md "Finite-capacity planning").
 */
export type PlanOptions = Omit<BodyOf<typeof planCollectionOperation>, 'dry_run'>;

/** Plans a collection: one command (docs/API.md "Commands and undo"), whose id undo takes. */
export function planCollection(
  transport: Transport,
  collectionId: string,
  boardId: string,
  options: PlanOptions,
): Promise<{ body: PlannedCollection; commandId: string }> {
  return sendOperationCommand(transport, planCollectionOperation, {
    params: { id: collectionId, board_id: boardId },
    query: { with: 'cards' },
    body: options,
  });
}

/** Removes the collection's cards and puts it back in the backlog: one command, whose id undo takes. */
export function moveToBacklog(transport: Transport, collectionId: string): Promise<{ body: Collection; commandId: string }> {
  return sendOperationCommand(transport, moveToBacklogOperation, { params: { id: collectionId } });
}

/** The days each stage works that the board does not (docs/API.md "A stage's workdays"). */
export interface StageWorkdaysResponse {
  data: { stage_id: string; dates: string[] }[];
}

export function fetchStageWorkdays(transport: Transport, boardId: string, from: string, to: string): Promise<StageWorkdaysResponse> {
  return send(transport, {
    method: 'GET',
    path: apiPath`/v1/board/${boardId}/stage_workdays`,
    query: { date_range_start: from, date_range_end: to },
  });
}

export function fetchCapacity(transport: Transport, boardId: string, from: string, to: string): Promise<CapacityResponse> {
  return send(transport, {
    method: 'GET',
    path: apiPath`/v1/board/${boardId}/capacity/stage`,
    query: { date_range_start: from, date_range_end: to, time_frame: 'day' },
  });
}
