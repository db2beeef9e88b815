/**
 * The floor's operations (docs/API.md "The floor"): an operator starts, pauses and finishes a
 * job and reports quantities, each one command with an id of the device's making, so a tap sent
 * twice counts once. Declared once for the server's checks, the OpenAPI document and the floor
 * view's client (shared/operation.ts).
 */
import { defineOperation, shape } from '../operation.js';

const cardId = shape.uuid('The card (job): one assigned to the caller’s resource.');
const at = shape.text(40, {
  min: 1,
  description: 'When the operator tapped, on the device (ISO 8601 with offset); at most 5 minutes ahead of the server.',
});
const commandId = shape.optional(shape.uuid('The command’s id, made on the device: sent again, it is applied once.'));

/** What a floor action answers: the command and what it wrote; `replayed` when that command was done before. */
export interface FloorActionResult {
  command_id: string | null;
  replayed: boolean;
  changed: { resource: string; id: string }[];
}

const action = (name: 'start' | 'pause' | 'finish', summary: string) =>
  defineOperation<FloorActionResult>()({
    method: 'POST',
    path: `/floor/${name}`,
    summary,
    tag: 'Floor',
    body: shape.object({ card_id: cardId, at, command_id: commandId }),
    answer: 'The command and the records it wrote',
  });

export const floorStartOperation = action('start', "Start the caller's timer on a job; their other running timer stops then");
export const floorPauseOperation = action('pause', "Stop the caller's timer on a job");
export const floorFinishOperation = action('finish', "Stop the caller's timer on a job and move it to its board's exit status");

/** The most pieces one report names (the order row's own limit is wider). */
export const maxReportedPieces = 1_000_000;

/**
 * The largest photo a quantity report carries, as bytes: the floor view makes a phone's photo
 * smaller (at most 1,600 pixels a side, JPEG) before it goes into the device's outbox, so a
 * report stays well under the API's body limit, base64 and all.
 */
export const maxFloorPhotoBytes = 4 * 1024 * 1024;
/** The kinds of picture a floor photo may be. */
export const floorPhotoTypes = ['image/jpeg', 'image/png', 'image/webp'] as const;

export const floorQuantitiesOperation = defineOperation<FloorActionResult>()({
  method: 'POST',
  path: '/floor/quantities',
  summary: 'Report made and scrapped pieces against an order row of a job, with a note and a photo',
  tag: 'Floor',
  body: shape.object({
    card_id: cardId,
    order_row_id: shape.uuid('A row of the order of the card’s collection, for the card’s activity.'),
    made: shape.number(0, maxReportedPieces, 'Pieces made: added to the row’s quantity_delivered.'),
    scrapped: shape.number(0, maxReportedPieces, 'Pieces scrapped: added to the row’s quantity_scrapped.'),
    note: shape.optional(shape.text(2000, { description: 'A note, kept as a comment on the card.' })),
    photo: shape.optional(
      shape.object({
        filename: shape.text(255, { min: 1, description: 'The name the photo has on the card.' }),
        content_type: shape.choice(floorPhotoTypes, 'What kind of picture it is.'),
        data: shape.text(Math.ceil(maxFloorPhotoBytes / 3) * 4, { min: 4, description: 'The photo, base64 (at most 4 MiB decoded).' }),
      }),
    ),
    at,
    command_id: commandId,
  }),
  answer: 'The command and the records it wrote',
});

/**
 * Whether an order row is work of a job whose activities are `activityIds` (the card's own,
 * else its stage's): a row for one of them, or for no activity. The floor lists and accepts
 * quantities for these rows; the planner's card panel shows the same ones.
 */
export function isRowOfActivities(row: { activity_id: string | null }, activityIds: readonly string[]): boolean {
  return row.activity_id === null || activityIds.includes(row.activity_id);
}

/** One job of `GET /v1/floor/jobs`. */
export interface FloorJob {
  card_id: string;
  collection_id: string;
  /** The day it is listed under: the day asked for, or the next. */
  day: string;
  display_name: string;
  start_date: string;
  end_date: string;
  order: { name: string | null; description: string | null };
  activity: { id: string; description: string } | null;
  planned_minutes: number;
  status: { id: string; name: string; exit: boolean } | null;
  /** Whether the caller's timer runs on it now. */
  running: boolean;
  booked_minutes: number;
  order_rows: {
    id: string;
    code: string | null;
    description: string | null;
    unit: string | null;
    quantity: number | null;
    quantity_delivered: number | null;
    quantity_scrapped: number | null;
  }[];
  attachments: { id: string; filename: string; file: string; type: string; content_type: string | null }[];
}

export interface FloorJobs {
  date: string;
  next_date: string;
  resource_id: string;
  data: FloorJob[];
}
