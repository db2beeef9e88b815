/**
 * The command operations (docs/API.md "Commands and undo"): batch commands, undo and the list
 * of recent commands, declared once for the server's checks, the OpenAPI document and the
 * renderer's client (shared/operation.ts).
 */
import { defineOperation, shape } from '../operation.js';
import { timeStatuses } from '../resources/time-tracking.js';

/** Most items one batch command takes: a planboard selection is far below it. */
export const maxBatchItems = 1000;

/** The fields a card move may set, as a card's PUT takes them. */
export const moveFields = ['stage_id', 'start_date', 'end_date', 'start_time', 'end_time', 'status_id'] as const;

/** What every command answers. */
export interface CommandResult {
  /** The command, for undo; null when it changed nothing, so no command (and no undo step) was kept. */
  command_id: string | null;
  description: string;
  /** Every record the command wrote, in the order it first wrote them. */
  changed: { resource: string; id: string }[];
}

/** A command that was kept: an undo always is (redo undoes it). */
export type KeptCommandResult = CommandResult & { command_id: string };

const answer = 'The command: its id (for undo; null when it changed nothing and so kept no command), description and the records it wrote';
const ids = shape.list(shape.uuid(), { min: 1, max: maxBatchItems });
const someIds = shape.optional(shape.list(shape.uuid(), { max: maxBatchItems }));
/** What the planner did, shown in undo lists; a default is made when left out. */
const description = shape.optional(
  shape.text(200, { min: 1, description: 'What the planner did, shown in undo lists (a default is made when left out).' }),
);

export const moveCardsOperation = defineOperation<CommandResult>()({
  method: 'POST',
  path: '/command/move_cards',
  summary: 'Move or resize cards as one command',
  tag: 'Commands',
  body: shape.object({
    description,
    cards: shape.list(shape.object({ id: shape.uuid() }, { names: moveFields, required: true }), { min: 1, max: maxBatchItems }),
  }),
  answer,
});

/** Labels or resources added to and removed from a set of cards. */
const linkBody = shape.object({ description, cards: ids, add: someIds, remove: someIds });

export const labelCardsOperation = defineOperation<CommandResult>()({
  method: 'POST',
  path: '/command/label_cards',
  summary: 'Add and remove labels on cards as one command',
  tag: 'Commands',
  body: linkBody,
  answer,
});

/** The dates a card assigned to someone else gets in the same command: a drop onto another person's row. */
export const reassignMoveFields = ['start_date', 'end_date'] as const;

export const assignCardsOperation = defineOperation<CommandResult>()({
  method: 'POST',
  path: '/command/assign_cards',
  summary: 'Assign and unassign resources on cards as one command',
  tag: 'Commands',
  body: shape.object({
    description,
    cards: ids,
    add: someIds,
    remove: someIds,
    move: shape.optional(
      shape.list(
        shape.object({ id: shape.uuid() }, { names: reassignMoveFields, required: true }),
        { min: 1, max: maxBatchItems },
        'New dates for some of the cards, moved as move_cards moves them, in the same command.',
      ),
    ),
  }),
  answer,
});

export const setTimeStatusOperation = defineOperation<CommandResult>()({
  method: 'POST',
  path: '/command/set_time_status',
  summary: 'Set the status of time entries as one command',
  tag: 'Commands',
  body: shape.object({ description, entries: ids, status: shape.choice(timeStatuses) }),
  answer,
});

export const editOrderRowsOperation = defineOperation<CommandResult>()({
  method: 'POST',
  path: '/command/edit_order_rows',
  summary: 'Edit order rows as one command',
  tag: 'Commands',
  body: shape.object({
    description,
    rows: shape.list(shape.object({ id: shape.uuid() }, { names: 'any', required: true }), { min: 1, max: maxBatchItems }),
  }),
  answer,
});

export const replanCollectionsOperation = defineOperation<CommandResult & { data: unknown[] }>()({
  method: 'POST',
  path: '/command/replan_collections',
  summary: 'Re-plan collections finite, the earliest due date first, as one command',
  tag: 'Commands',
  body: shape.object({
    description,
    board_id: shape.uuid(),
    collection_ids: ids,
    start: shape.optional(shape.date('The first day of the new plans (default today).')),
    dry_run: shape.optional(
      shape.boolean('true: answer the collections as they would be planned, with their new ends; nothing is written and no command kept.'),
    ),
  }),
  answer: `${answer}, and the collections as planned (with their cards); a dry run answers them with \`dry_run: true\` and \`command_id: null\``,
});

/**
 * Overtime for people on days (docs/API.md "What would it take?"): each an `overtime` schedule
 * deviation of its minutes, all as one command, so one undo takes it all back.
 */
export const addOvertimeOperation = defineOperation<CommandResult>()({
  method: 'POST',
  path: '/command/add_overtime',
  summary: 'Add overtime to people on days, as one command',
  tag: 'Commands',
  body: shape.object({
    description,
    overtime: shape.list(
      shape.object({
        resource_id: shape.uuid('The person.'),
        date: shape.date('The day.'),
        minutes: shape.integer(1, 1440, 'Minutes added to their time that day.'),
      }),
      { min: 1, max: maxBatchItems },
    ),
  }),
  answer,
});

export const undoCommandOperation = defineOperation<KeptCommandResult>()({
  method: 'POST',
  path: '/command/:id/undo',
  summary: 'Undo a command (undo an undo to redo)',
  tag: 'Commands',
  body: undefined,
  answer: 'The undo command: its id (undo it to redo), description and the records it wrote',
});
