/**
 * The Planning API calls the planboard makes beyond plain CRUD: cards of a board over a date
 * range, moving and deleting cards under their collection, planning a collection and sending
 * it back, the capacity per stage and day. Each answers the API's record, or throws
 * `ApiRequestError` with the API's own message.
 */
import type { BridgeRequest } from '../../../shared/ipc.js';
import type { ListEnvelope } from '../../../shared/list.js';
import { maxLimit } from '../../../shared/list.js';
import type { Card } from '../../../shared/resources/card.js';
import type { Collection } from '../../../shared/resources/collection.js';
import { ApiRequestError, isApiErrorBody } from '../../api/request-error.js';
import type { Transport } from '../../api/transport.js';
import type { CapacityResponse } from './capacity.js';
import { cardListShape, type PlanCard } from './plan-card.js';

export type PlannedCollection = Omit<Collection, 'cards'> & { cards: Card[] };

export async function send<T>(transport: Transport, request: BridgeRequest): Promise<T> {
  const response = await transport.request(request);
  if (response.status < 200 || response.status >= 300) {
    throw new ApiRequestError(response.status, isApiErrorBody(response.body) ? response.body : null);
  }
  return response.body as T;
}

const id = encodeURIComponent;

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
    path: `/v1/collection/${id(collectionId)}/card`,
    query: { limit: String(maxLimit) },
  });
  return page.data;
}

export interface CardRef {
  id: string;
  collection_id: string;
}

/** A partial update of a card; the server applies the board's dependency behaviour. */
export function updateCard(transport: Transport, card: CardRef, changes: Record<string, unknown>): Promise<Card> {
  return send(transport, { method: 'PUT', path: `/v1/collection/${id(card.collection_id)}/card/${id(card.id)}`, body: changes });
}

export async function deleteCard(transport: Transport, card: CardRef): Promise<void> {
  await send(transport, { method: 'DELETE', path: `/v1/collection/${id(card.collection_id)}/card/${id(card.id)}` });
}

/** Brings a deleted card back from the trash. */
export async function restoreCard(transport: Transport, cardId: string): Promise<void> {
  await send(transport, { method: 'POST', path: `/v1/trash/card/${id(cardId)}/restore` });
}

export interface PlanOptions {
  start: string;
  /** Everything on this stage; without it the board's stages take the collection's activities. */
  stage_id?: string;
}

export function planCollection(transport: Transport, collectionId: string, boardId: string, options: PlanOptions): Promise<PlannedCollection> {
  return send(transport, {
    method: 'POST',
    path: `/v1/collection/${id(collectionId)}/board/${id(boardId)}`,
    query: { with: 'cards' },
    body: options,
  });
}

/** Removes the collection's cards and puts it back in the backlog. */
export function moveToBacklog(transport: Transport, collectionId: string): Promise<Collection> {
  return send(transport, { method: 'POST', path: `/v1/collection/${id(collectionId)}/backlog` });
}

export function setCollectionStatus(transport: Transport, collectionId: string, status: 'not_planned' | 'ignored'): Promise<Collection> {
  return send(transport, { method: 'PUT', path: `/v1/collection/${id(collectionId)}`, body: { status } });
}

export function fetchCapacity(transport: Transport, boardId: string, from: string, to: string): Promise<CapacityResponse> {
  return send(transport, {
    method: 'GET',
    path: `/v1/board/${id(boardId)}/capacity/stage`,
    query: { date_range_start: from, date_range_end: to, time_frame: 'day' },
  });
}
