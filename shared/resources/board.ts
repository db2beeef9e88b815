import {
  checkCustomFieldChoices,
  checkCustomFieldOptions,
  customFieldChoiceSchema,
  customFieldScopes,
  customFieldTypes,
  type CustomFieldChoice,
} from '../custom-fields.js';
import {
  defineResource,
  externalRefField,
  idField,
  isPlainObject,
  jsonField,
  nestedList,
  timestampField,
  type InputOf,
  type RecordOf,
} from '../fields.js';

export const boardColors = [
  'blue',
  'brown',
  'bubblegum',
  'charcoal',
  'green',
  'grey',
  'indigo',
  'lavender',
  'navy',
  'olive',
  'orange',
  'pink',
  'purple',
  'raspberry',
  'red',
  'ruby',
  'skyblue',
  'teal',
  'transparent',
  'yellow',
] as const;
export const capacityMethods = ['none', 'individual', 'estimated_time', 'remaining_time'] as const;
export const dependencyBehaviors = ['notify', 'push', 'maintain'] as const;
export { customFieldTypes };

export const weekdayKeys = ['1', '2', '3', '4', '5', '6', '7'] as const;

/** Which weekdays a board works, Monday = "1". */
export type BoardWorkdays = Record<(typeof weekdayKeys)[number], boolean>;

/** One item of a board's checklist template. */
export interface BoardChecklistItem {
  description: string;
}

/** A board's workdays: `{"1": true … "7": false}`, Monday = 1; all seven keys. */
export function checkBoardWorkdays(value: unknown): string | null {
  if (!isPlainObject(value)) return 'must be an object with keys "1" (Monday) to "7" (Sunday)';
  const keys = Object.keys(value).sort();
  if (keys.join() !== weekdayKeys.join()) return 'must have exactly the keys "1" (Monday) to "7" (Sunday)';
  return Object.values(value).every((v) => typeof v === 'boolean') ? null : 'values must be true or false';
}

/** A planboard: stages as rows, workdays as columns (docs/API.md "Board"). */
export const boardSpec = defineResource({
  name: 'board',
  title: 'Board',
  fields: {
    id: idField,
    name: { type: 'string', required: true, maxLength: 150 },
    color: { type: 'enum', enum: boardColors, default: 'transparent' },
    visibility: { type: 'enum', enum: ['everyone', 'restricted'], default: 'everyone' },
    capacity_method: { type: 'enum', enum: capacityMethods, default: 'individual' },
    split_cards_by_activity: { type: 'boolean', default: false },
    own_backlog: { type: 'boolean', default: false },
    dependency_behavior: { type: 'enum', enum: dependencyBehaviors, default: 'notify' },
    workdays: jsonField<BoardWorkdays>()({
      type: 'json',
      shape: 'object',
      check: checkBoardWorkdays,
      default: { '1': true, '2': true, '3': true, '4': true, '5': true, '6': false, '7': false },
    }),
    space_id: { type: 'uuid', nullable: true, references: 'space' },
    card_lock_options: { type: 'json', shape: 'array', readOnly: true, default: [] },
    permission_set: { type: 'string', readOnly: true, virtual: true, description: 'What the caller may do on this board.' },
    external_ref: externalRefField,
    archived_at: { type: 'datetime', nullable: true },
    stages: nestedList('Stages, writable inline with their activities.'),
    labels: nestedList('Labels, writable inline.'),
    statuses: nestedList('Statuses with entry/exit flags, writable inline.'),
    custom_fields: nestedList('Custom field definitions, writable inline.'),
    created_at: timestampField,
    updated_at: timestampField,
  },
});
export type Board = RecordOf<typeof boardSpec>;
export type BoardInput = InputOf<typeof boardSpec>;

/**
 * The `filter` of a board's backlog: its collections not planned, and — unless the board keeps
 * a backlog of its own (`own_backlog`) — the shared backlog of collections on no board, where an
 * order's collection starts (docs/API.md "Board").
 */
export function boardBacklogFilter(board: Pick<Board, 'id' | 'own_backlog'>): string {
  const ownCollections = `board_id:eq:'${board.id}'`;
  const where = board.own_backlog ? ownCollections : `(${ownCollections},or,board_id:eq:null)`;
  return `${where},and,status:eq:not_planned`;
}

const boardIdField = { type: 'uuid', readOnly: true, description: 'Set from the path or the board it is written inside.' } as const;

export const labelSpec = defineResource({
  name: 'label',
  title: 'Label',
  fields: {
    id: idField,
    board_id: boardIdField,
    name: { type: 'string', required: true, maxLength: 100 },
    color: { type: 'enum', enum: boardColors, default: 'grey' },
    priority: { type: 'integer', minimum: 0, default: 0 },
    created_at: timestampField,
    updated_at: timestampField,
  },
});
export type Label = RecordOf<typeof labelSpec>;

export const statusSpec = defineResource({
  name: 'status',
  title: 'Status',
  fields: {
    id: idField,
    board_id: boardIdField,
    name: { type: 'string', required: true, maxLength: 100 },
    color: { type: 'enum', enum: boardColors, default: 'grey' },
    priority: { type: 'integer', minimum: 0, default: 0 },
    entry: { type: 'boolean', default: false, description: 'New cards get the first entry status.' },
    exit: { type: 'boolean', default: false, description: 'A card in an exit status is done.' },
    created_at: timestampField,
    updated_at: timestampField,
  },
});
export type Status = RecordOf<typeof statusSpec>;

export const boardViewSpec = defineResource({
  name: 'board_view',
  title: 'BoardView',
  fields: {
    id: idField,
    board_id: boardIdField,
    name: { type: 'string', required: true, maxLength: 100 },
    type: { type: 'enum', enum: ['planboard', 'list', 'calendar', 'capacity'], default: 'planboard' },
    filters: {
      type: 'json',
      shape: 'object',
      default: {},
      description: 'Saved filters, e.g. {labels:[…], resources:[…], statuses:[…], text}.',
    },
    settings: { type: 'json', shape: 'object', default: {}, description: 'Saved settings, e.g. {zoom: "week"}.' },
    // The public API lists a user's views (`GET /v1/user?with=board_views`), so a view may be one user's.
    user_id: {
      type: 'uuid',
      nullable: true,
      references: 'user',
      description: 'The user whose own view it is; null: shared by everyone on the board.',
    },
    created_at: timestampField,
    updated_at: timestampField,
  },
});
export type BoardView = RecordOf<typeof boardViewSpec>;

/** A checklist template of a board; collections and cards can get a copy of it. */
export const boardChecklistSpec = defineResource({
  name: 'board_checklist',
  title: 'BoardChecklist',
  fields: {
    id: idField,
    board_id: boardIdField,
    name: { type: 'string', required: true, maxLength: 150 },
    items: jsonField<BoardChecklistItem[]>()({
      type: 'json',
      shape: 'array',
      default: [],
      description: 'Template items as [{description}].',
      check: (value) =>
        (value as unknown[]).every((i) => isPlainObject(i) && typeof i.description === 'string' && i.description.length <= 500)
          ? null
          : 'items must be objects with a description of at most 500 characters',
    }),
    priority: { type: 'integer', minimum: 0, default: 0 },
    created_at: timestampField,
    updated_at: timestampField,
  },
});
export type BoardChecklist = RecordOf<typeof boardChecklistSpec>;

/** A custom field definition on a board (docs/API.md "Custom fields"); values live on collections and cards. */
export const boardCustomFieldSpec = defineResource({
  name: 'board_custom_field',
  title: 'BoardCustomField',
  fields: {
    id: idField,
    board_id: boardIdField,
    name: { type: 'string', required: true, maxLength: 100 },
    type: { type: 'enum', enum: customFieldTypes, default: 'text' },
    scope: { type: 'enum', enum: customFieldScopes, default: 'collection' },
    priority: { type: 'integer', minimum: 0, default: 0 },
    // The same checks as the `options` and `list` of a value (shared/custom-fields.ts).
    options: {
      type: 'json',
      shape: 'object',
      nullable: true,
      check: checkCustomFieldOptions,
      description: '{unit, align, decimals} for numbers.',
    },
    list: jsonField<CustomFieldChoice[]>()({
      type: 'json',
      shape: 'array',
      nullable: true,
      check: checkCustomFieldChoices,
      items: customFieldChoiceSchema,
      description: 'Choices [{name, value, color}] for list and select; a choice without a value stands for its name.',
    }),
    created_at: timestampField,
    updated_at: timestampField,
  },
});
export type BoardCustomField = RecordOf<typeof boardCustomFieldSpec>;
