import {
  defineResource,
  externalRefField,
  idField,
  isPlainObject,
  jsonField,
  nestedList,
  timestampField,
  type CheckedProblem,
  type InputOf,
  type RecordOf,
} from '../fields.js';
import { isUuid } from '../ids.js';
import { checkSkills, skillPattern, skillMaxLength } from '../skills.js';
import { resourceTypes } from './activity.js';
import { weekdayKeys } from './board.js';

/** A resource's hours per weekday, Monday = "1"; null on a day it does not work. */
export type ResourceWorkdays = Record<(typeof weekdayKeys)[number], number | null>;

/**
 * Where a resource plans, as stored: the API fills the defaults before it writes (active true,
 * a stage's percentage from the stage), so every key is there.
 */
export interface ResourceBoard {
  id: string;
  active: boolean;
  stages: ResourceBoardStage[];
}

export interface ResourceBoardStage {
  id: string;
  /** Its share of the resource's hours on this stage, 0–100. */
  percentage: number;
  active: boolean;
}

/**
 * A resource's workdays: hours per weekday `{"1": 8 … "7": null}`, 0–24 or null, all seven
 * keys. Hours out of that range say which bound they broke (`minimum` 0, `maximum` 24), so the
 * form can word it as a day's hours.
 */
export function checkResourceWorkdays(value: unknown): string | CheckedProblem | null {
  if (!isPlainObject(value)) return 'must be an object with keys "1" (Monday) to "7" (Sunday)';
  if (Object.keys(value).sort().join() !== weekdayKeys.join()) return 'must have exactly the keys "1" (Monday) to "7" (Sunday)';
  const problem = 'hours must be numbers from 0 to 24, or null';
  for (const hours of Object.values(value)) {
    if (hours === null) continue;
    if (typeof hours !== 'number' || !Number.isFinite(hours)) return { problem, rule: 'type' };
    if (hours < 0) return { problem, rule: 'minimum', limit: 0 };
    if (hours > 24) return { problem, rule: 'maximum', limit: 24 };
  }
  return null;
}

/** Shape of `boards`: `[{id, active, stages: [{id, percentage, active}]}]`; ids are checked by the API. */
export function checkResourceBoards(value: unknown): string | null {
  for (const board of value as unknown[]) {
    if (!isPlainObject(board) || !isUuid(board.id)) return 'each board must be {id, active, stages}';
    if (board.active !== undefined && typeof board.active !== 'boolean') return 'board active must be true or false';
    if (board.stages !== undefined && !Array.isArray(board.stages)) return 'board stages must be an array';
    for (const stage of (board.stages as unknown[] | undefined) ?? []) {
      if (!isPlainObject(stage) || !isUuid(stage.id)) return 'each stage must be {id, percentage, active}';
      const pct = stage.percentage;
      if (pct !== undefined && (typeof pct !== 'number' || !Number.isInteger(pct) || pct < 0 || pct > 100)) {
        return 'stage percentage must be a whole number from 0 to 100';
      }
      if (stage.active !== undefined && typeof stage.active !== 'boolean') return 'stage active must be true or false';
    }
  }
  return null;
}

/** A person, machine or cell that does the work (docs/API.md "Resources and paths"). */
export const resourceSpec = defineResource({
  name: 'resource',
  title: 'Resource',
  fields: {
    id: idField,
    name: { type: 'string', required: true, maxLength: 150 },
    type: { type: 'enum', enum: resourceTypes, default: 'employee' },
    description: { type: 'string', nullable: true, maxLength: 65535 },
    start_date: { type: 'date', nullable: true, description: 'First day it is available; null means always.' },
    end_date: { type: 'date', nullable: true, description: 'Last day it is available; null means open-ended.' },
    avatar: { type: 'string', nullable: true, maxLength: 2048, pattern: '^https?://\\S+$' },
    workdays: jsonField<ResourceWorkdays>()({
      type: 'json',
      shape: 'object',
      check: checkResourceWorkdays,
      default: { '1': 8, '2': 8, '3': 8, '4': 8, '5': 8, '6': null, '7': null },
      description: 'Hours per weekday, Monday = "1".',
    }),
    // A second pattern of hours (docs/decisions/shifts.md): added to workdays, as a second shift.
    second_shift: jsonField<ResourceWorkdays>()({
      type: 'json',
      shape: 'object',
      nullable: true,
      check: checkResourceWorkdays,
      description: 'A second shift: hours per weekday, Monday = "1", added to workdays (a day counts at most 24 hours); null: one shift.',
    }),
    workdays_start_date: {
      type: 'date',
      nullable: true,
      readOnly: true,
      description: "The public API's first day of the current workdays. Null: one pattern of workdays applies to every date here.",
    },
    integration_schedule: { type: 'boolean', default: false },
    color_hex: { type: 'string', nullable: true, pattern: '^#([0-9a-f]{3}){1,2}$' },
    boards: jsonField<ResourceBoard[]>()({
      type: 'json',
      shape: 'array',
      default: [],
      check: checkResourceBoards,
      mergeById: { inner: { stages: {} } },
      description:
        'Where it plans: [{id, active, stages: [{id, percentage, active}]}]. A PUT replaces the list; with update_without_delete_nested=true boards and stages merge by id.',
    }),
    skills: jsonField<string[]>()({
      type: 'json',
      shape: 'array',
      default: [],
      check: checkSkills,
      items: { type: 'string', maxLength: skillMaxLength, pattern: skillPattern },
      description:
        'What it is qualified for, as names (such as "welding-cert-2"); an activity\'s `skill` names one (docs/API.md "Skills and crews").',
    }),
    external_ref: externalRefField,
    transaction: { type: 'string', nullable: true, maxLength: 36 },
    archived_at: { type: 'datetime', nullable: true },
    groups: nestedList('Groups it belongs to.'),
    created_at: timestampField,
    updated_at: timestampField,
  },
});
export type Resource = RecordOf<typeof resourceSpec>;
export type ResourceInput = InputOf<typeof resourceSpec>;

/**
 * The public record has no list of deviation types (docs/API.md "Resources and paths", ScheduleDeviation), so
 * every value it names is accepted: what integrations send (leave, vacation, sick, other), what
 * a vPlan tool names (holiday, maintenance, malfunction), and `absence`, the word the public docs
 * use for a deviation itself. `overtime` is ours: the one type that adds its minutes to the
 * day instead of taking them (docs/API.md "Schedules and capacity"). `time_for_time` is ours
 * too: time off taken from the user's overtime balance (docs/API.md "Overtime balance"), an
 * absence like any other for capacity.
 */
export const deviationTypes = [
  'leave',
  'vacation',
  'holiday',
  'absence',
  'sick',
  'maintenance',
  'malfunction',
  'other',
  'overtime',
  'time_for_time',
] as const;

/** An absence or extra time off for one resource over a date range, or overtime that adds minutes to its days. */
export const scheduleDeviationSpec = defineResource({
  name: 'schedule_deviation',
  title: 'ScheduleDeviation',
  fields: {
    id: idField,
    resource_id: { type: 'uuid', readOnly: true },
    description: { type: 'string', nullable: true, maxLength: 255 },
    type: { type: 'enum', enum: deviationTypes, default: 'other' },
    start_date: { type: 'date', required: true },
    end_date: { type: 'date', required: true },
    time: {
      type: 'integer',
      nullable: true,
      minimum: 0,
      maximum: 1440,
      description:
        'Minutes unavailable per day; null means the whole day. For type overtime: the minutes added per day, required (1–1440).',
    },
    external_ref: externalRefField,
    company_holiday_id: {
      type: 'uuid',
      nullable: true,
      readOnly: true,
      virtual: true,
      description:
        'Set on a company holiday as this resource has it (read-only here; docs/API.md "Absences and holidays"); null on its own.',
    },
    created_at: timestampField,
    updated_at: timestampField,
  },
});
export type ScheduleDeviation = RecordOf<typeof scheduleDeviationSpec>;
