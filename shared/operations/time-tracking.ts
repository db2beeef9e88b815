/**
 * The time-tracking operations with bodies of their own (docs/API.md "Time tracking"): the
 * timer and marking entries exported, declared once for the server's checks, the OpenAPI
 * document and the renderer's client (shared/operation.ts).
 */
import { defineOperation, shape } from '../operation.js';
import type { TimeTracking } from '../resources/time-tracking.js';

const whose = shape.optional(shape.uuid("Whose timer (default: the caller's own; another user's is for planners and API keys)."));
/** An instant, checked by the time entry's own rules (docs/API.md "Time tracking"). */
const end = shape.optional(shape.any('When it ended (default now): a timestamp the time entry rules check.'));
const shapeQuery = { show: 'Fields to show.', hide: 'Fields to hide.', with: 'Relations to include.' } as const;

export const startTimerOperation = defineOperation<TimeTracking>()({
  method: 'POST',
  path: '/time_tracking/start',
  summary: "Start a timer now; the user's running timer stops",
  tag: 'TimeTracking',
  // The entry's other fields (card_id, activity_id, note …) go to the time entry's own checks.
  body: shape.object({ user_id: whose }, { names: 'any', required: false }),
  answer: 'The running entry',
  status: 201,
  query: shapeQuery,
});

export const stopTimerOperation = defineOperation<TimeTracking>()({
  method: 'POST',
  path: '/time_tracking/:id/stop',
  summary: 'Stop a running timer now (or at end)',
  tag: 'TimeTracking',
  body: shape.object({ end }),
  answer: 'The stopped entry',
  query: shapeQuery,
});

export const stopRunningTimerOperation = defineOperation<TimeTracking>()({
  method: 'POST',
  path: '/time_tracking/stop',
  summary: "Stop the caller's running timer",
  tag: 'TimeTracking',
  body: shape.object({ user_id: whose, end }),
  answer: 'The stopped entry',
  query: shapeQuery,
});

export const markExportedOperation = defineOperation<{ count: number; synchronized_at: string }>()({
  method: 'POST',
  path: '/time_tracking/mark_exported',
  summary: 'Mark the entries a filter selects as exported (sets synchronized_at), so none is billed twice',
  tag: 'TimeTracking',
  // external_ref is unique per entry, so a bulk mark takes only a shared note.
  body: shape.object({
    external_note: shape.optional(shape.nullable(shape.text(65535, { description: 'A note for every entry marked; null clears it.' }))),
  }),
  answer: 'How many entries were marked, and when',
  query: {
    filter: 'Which entries (list filter grammar); entries already exported are skipped unless all=true.',
    all: 'true: mark those already exported again.',
  },
});
