/**
 * The Planning API calls of the card panel. Cards and what hangs off them are written under
 * the card's collection (`/v1/collection/{cid}/…`); relations and time entries have paths of
 * their own. Each call answers the API's record, or throws `ApiRequestError` with its message.
 */
import type { BinaryBody } from '../../../shared/bridge-body.js';
import { isBinaryBody } from '../../../shared/bridge-body.js';
import type { BridgeUpload } from '../../../shared/ipc.js';
import type { ListEnvelope } from '../../../shared/list.js';
import { maxLimit } from '../../../shared/list.js';
import type { Activity } from '../../../shared/resources/activity.js';
import type { Attachment } from '../../../shared/resources/attachment.js';
import type { BoardChecklist, BoardCustomField, Label, Status } from '../../../shared/resources/board.js';
import type { Card, CardRelation } from '../../../shared/resources/card.js';
import type { Checklist, ChecklistItem } from '../../../shared/resources/checklist.js';
import type { Collection } from '../../../shared/resources/collection.js';
import type { Comment } from '../../../shared/resources/comment.js';
import type { Resource } from '../../../shared/resources/resource.js';
import type { Stage } from '../../../shared/resources/stage.js';
import { splitCardOperation } from '../../../shared/operations/planning.js';
import { startTimerOperation, stopTimerOperation } from '../../../shared/operations/time-tracking.js';
import { callOperation } from '../../api/commands.js';
import { send, sendRequest } from '../../api/client.js';
import { apiPath, cardPath, type CardRef } from '../../api/paths.js';
import type { Transport } from '../../api/transport.js';
import { bytesFromBase64 } from '../../components/base64.js';
import type { ActivitySummary } from '../time/time-api.js';
import type { EntryWithUser } from './floor-figures.js';

/** The card as the panel reads it: its fields with everything it links to, and the minutes tracked. */
export type CardDetail = Omit<Card, 'labels' | 'resources' | 'activities'> & {
  collection: Pick<Collection, 'id' | 'name' | 'warnings' | 'board_id'> | null;
  labels: Label[];
  resources: Resource[];
  activities: (Activity & { time: number })[];
  /** With its activities: the card's work when it has none of its own (renderer/views/time/card-activities.ts). */
  stage: (Stage & { activities: ActivitySummary[] }) | null;
  status: Status | null;
  time_tracking_total?: number;
};

/** What the panel needs of the card's board: its stages, statuses, labels, custom fields and checklist templates. */
export type PanelBoard = {
  id: string;
  name: string;
  stages: Stage[];
  statuses: Status[];
  labels: Label[];
  custom_fields: BoardCustomField[];
  checklists: BoardChecklist[];
};

/** A comment with its author (null for a comment made with an API key, as the desktop's own are). */
export type CommentWithAuthor = Comment & { user?: { display_name: string | null; fullname: string | null; email: string } | null };

export type ChecklistWithItems = Omit<Checklist, 'items'> & { items: ChecklistItem[] };

/** A relation with both of its cards, for naming the other one. */
export type RelationWithCards = CardRelation & {
  card: RelatedCard | null;
  related_card: RelatedCard | null;
};

export type RelatedCard = Pick<Card, 'id' | 'name' | 'collection_id' | 'start_date' | 'end_date'> & {
  collection?: { name: string | null } | null;
};

/** A file the planner chose, ready for the bridge. */
export type ChosenFile = Pick<BridgeUpload, 'filename' | 'contentType' | 'data'>;

export type SplitBy = { date: string } | { share: number };

/** Filter values are single-quoted; a quote cannot be escaped inside one, so it is left out. */
const quoted = (text: string) => `'${text.replace(/'/g, '')}'`;
const everything = String(maxLimit);

export const boardQuery = { with: 'stages,statuses,labels,custom_fields,checklists' } as const;

export function cardApi(transport: Transport) {
  const get = <T>(path: string, query?: Record<string, string>) => send<T>(transport, { method: 'GET', path, ...(query ? { query } : {}) });
  const post = <T>(path: string, body: unknown = {}) => send<T>(transport, { method: 'POST', path, body });
  const put = <T>(path: string, body: unknown) => send<T>(transport, { method: 'PUT', path, body });
  const remove = (path: string) => send<unknown>(transport, { method: 'DELETE', path }).then(() => undefined);

  return {
    /** The card, or null when it no longer exists. */
    async card(cardId: string): Promise<CardDetail | null> {
      const page = await get<ListEnvelope<CardDetail>>('/v1/card', {
        filter: `id:eq:${quoted(cardId)}`,
        with: 'collection,labels,resources,activities,stage.activities,status',
        include: 'time_tracking_total',
        limit: '1',
      });
      return page.data[0] ?? null;
    },
    board: (boardId: string) => get<PanelBoard>(apiPath`/v1/board/${boardId}`, boardQuery),
    updateCard: (card: CardRef, changes: Record<string, unknown>) => put<Card>(cardPath(card), changes),
    deleteCard: (card: CardRef) => remove(cardPath(card)),
    restoreCard: (cardId: string) => post<unknown>(apiPath`/v1/trash/card/${cardId}/restore`),
    /** Answers both cards: the original (shortened) first, then the new one. */
    splitCard: (card: CardRef, by: SplitBy) =>
      callOperation(transport, splitCardOperation, { params: { collection_id: card.collection_id, id: card.id }, body: by }).then(
        (answer) => answer.data,
      ),

    checklists: (card: CardRef) =>
      get<ListEnvelope<ChecklistWithItems>>(`${cardPath(card)}/checklist`, { with: 'items', sort: 'position:asc', limit: everything }).then(
        (page) => page.data,
      ),
    addChecklist: (card: CardRef, body: { name?: string; board_checklist_id?: string; position: number }) =>
      post<Checklist>(`${cardPath(card)}/checklist`, body),
    removeChecklist: (card: CardRef, checklistId: string) => remove(apiPath`/v1/collection/${card.collection_id}/checklist/${checklistId}`),
    addItem: (card: CardRef, checklistId: string, body: { description: string; position: number }) =>
      post<ChecklistItem>(apiPath`/v1/collection/${card.collection_id}/checklist/${checklistId}/item`, body),
    updateItem: (card: CardRef, checklistId: string, itemId: string, changes: { checked?: boolean; description?: string }) =>
      put<ChecklistItem>(apiPath`/v1/collection/${card.collection_id}/checklist/${checklistId}/item/${itemId}`, changes),
    removeItem: (card: CardRef, checklistId: string, itemId: string) =>
      remove(apiPath`/v1/collection/${card.collection_id}/checklist/${checklistId}/item/${itemId}`),

    comments: (card: CardRef) =>
      get<ListEnvelope<CommentWithAuthor>>(apiPath`/v1/collection/${card.collection_id}/comment`, {
        filter: `card_id:eq:${quoted(card.id)}`,
        sort: 'created_at:asc',
        with: 'user',
        limit: everything,
      }).then((page) => page.data),
    addComment: (card: CardRef, text: string, parentId: string | null) =>
      post<Comment>(apiPath`/v1/collection/${card.collection_id}/comment`, {
        card_id: card.id,
        text,
        ...(parentId ? { parent_id: parentId } : {}),
      }),

    attachments: (card: CardRef) =>
      get<ListEnvelope<Attachment>>(apiPath`/v1/collection/${card.collection_id}/attachment`, {
        filter: `card_id:eq:${quoted(card.id)}`,
        sort: 'created_at:asc',
        limit: everything,
      }).then((page) => page.data),
    addLink: (card: CardRef, filename: string, url: string) =>
      post<Attachment>(apiPath`/v1/collection/${card.collection_id}/attachment`, {
        filename,
        file: url,
        type: 'external',
        card_id: card.id,
      }),
    upload: (card: CardRef, file: ChosenFile) =>
      send<Attachment>(transport, {
        method: 'POST',
        path: apiPath`/v1/collection/${card.collection_id}/attachment/upload`,
        // The exact name goes as a field too: the file part's name is quoted for its header.
        upload: { ...file, fields: { card_id: card.id, filename: file.filename } },
      }),
    async download(card: CardRef, attachment: Pick<Attachment, 'id' | 'content_type'>): Promise<Blob> {
      const response = await sendRequest(transport, {
        method: 'GET',
        path: apiPath`/v1/collection/${card.collection_id}/attachment/${attachment.id}/download`,
      });
      return blobOf(response.body, response.headers['content-type'] ?? attachment.content_type ?? 'application/octet-stream');
    },
    removeAttachment: (card: CardRef, attachmentId: string) =>
      remove(apiPath`/v1/collection/${card.collection_id}/attachment/${attachmentId}`),

    relations: (cardId: string) =>
      get<ListEnvelope<RelationWithCards>>('/v1/card_relation', {
        filter: `card_id:eq:${quoted(cardId)},or,related_card_id:eq:${quoted(cardId)}`,
        with: 'card.collection,related_card.collection',
        limit: everything,
      }).then((page) => page.data),
    addRelation: (body: Pick<CardRelation, 'card_id' | 'related_card_id' | 'type'>) => post<CardRelation>('/v1/card_relation', body),
    removeRelation: (relationId: string) => remove(apiPath`/v1/card_relation/${relationId}`),
    /** Cards of the board whose name (or collection's name) contains `text`, for picking one. */
    searchCards: (boardId: string, text: string) =>
      get<ListEnvelope<RelatedCard>>('/v1/card', {
        filter: `board_id:eq:${quoted(boardId)},and,(name:contains:${quoted(text)},or,collection.name:contains:${quoted(text)})`,
        with: 'collection',
        sort: 'start_date:asc',
        limit: '20',
      }).then((page) => page.data),

    /** With who made each entry: the panel names who has a timer running on the card. */
    timeEntries: (cardId: string) =>
      get<ListEnvelope<EntryWithUser>>('/v1/time_tracking', {
        filter: `card_id:eq:${quoted(cardId)}`,
        with: 'user',
        sort: 'start:desc',
        limit: everything,
      }).then((page) => page.data),
    startTimer: (cardId: string) => callOperation(transport, startTimerOperation, { body: { card_id: cardId } }),
    stopTimer: (entryId: string) => callOperation(transport, stopTimerOperation, { params: { id: entryId } }),
  };
}

export type CardApi = ReturnType<typeof cardApi>;

/**
 * A download as the bridge hands it over: base64 for binary types, text for `text/*` and the
 * parsed value for JSON (electron/host/local-instance.ts). Text is re-encoded as UTF-8 and JSON
 * re-serialised, so those two come back equal in content, not always byte for byte.
 */
export function blobOf(body: unknown, contentType: string): Blob {
  if (isBinaryBody(body))
    return new Blob([bytesFromBase64((body as BinaryBody).data)], { type: (body as BinaryBody).contentType || contentType });
  if (typeof body === 'string') return new Blob([body], { type: contentType });
  return new Blob([JSON.stringify(body)], { type: contentType });
}
