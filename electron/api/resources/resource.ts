import type { FieldProblem } from '../../../shared/errors.js';
import { daysBetween } from '../../../shared/dates.js';
import { companyHolidaySpec, maxHolidayDays } from '../../../shared/resources/company-holiday.js';
import { resourceSpec, scheduleDeviationSpec } from '../../../shared/resources/resource.js';
import { derivedDeviations, readCompanyHolidays } from '../planning/company-holidays.js';
import type { StoredOf } from '../../../shared/fields.js';
import type { ResourceModule, ResourceRules } from '../resource.js';
import { tables } from '../tables.js';
import type { RecordWrites } from '../../store/record-store.js';

/** `boards` as sent, checked by checkResourceBoards (shared/resources/resource.ts) before the rules run. */
type BoardEntry = { id: string; active?: boolean; stages?: { id: string; percentage?: number; active?: boolean }[] };

/**
 * Every board and stage a resource names must exist, and each stage must be on its board.
 * Entries the resource already had are not checked again (a deleted stage does not stop the
 * resource from being saved back whole).
 */
async function checkBoards(
  tx: RecordWrites,
  values: Record<string, unknown>,
  current: StoredOf<typeof resourceSpec> | undefined,
): Promise<FieldProblem[]> {
  if (!Array.isArray(values.boards)) return [];
  const known = new Set((current?.boards ?? []).flatMap((b) => [b.id, ...(b.stages ?? []).map((s) => `${b.id}/${s.id}`)]));
  const problems: FieldProblem[] = [];
  const boards: BoardEntry[] = values.boards;
  for (const [i, board] of boards.entries()) {
    const boardId = board.id.toLowerCase();
    if (!known.has(boardId) && !(await tx.get(tables.board, boardId))) {
      problems.push({ field: `boards.${i}.id`, description: `boards.${i}.id names no Board with id ${board.id}` });
      continue;
    }
    for (const [j, stage] of (board.stages ?? []).entries()) {
      const stageId = stage.id.toLowerCase();
      if (known.has(`${boardId}/${stageId}`)) continue;
      const found = await tx.get(tables.stage, stageId);
      if (!found || found.board_id !== boardId) {
        problems.push({ field: `boards.${i}.stages.${j}.id`, description: `boards.${i}.stages.${j}.id names no Stage of that board` });
      }
    }
  }
  return problems;
}

/** Fills the defaults of `boards` so readers never guess: active true, percentage from the stage. */
async function normaliseBoards(tx: RecordWrites, values: Record<string, unknown>): Promise<void> {
  if (!Array.isArray(values.boards)) return;
  const boards: BoardEntry[] = values.boards;
  const normalised = [];
  for (const board of boards) {
    const stages = [];
    for (const stage of board.stages ?? []) {
      const id = stage.id.toLowerCase();
      const percentage = stage.percentage ?? (await tx.get(tables.stage, id))?.default_percentage ?? 100;
      stages.push({ id, percentage, active: stage.active ?? true });
    }
    normalised.push({ id: board.id.toLowerCase(), active: board.active ?? true, stages });
  }
  values.boards = normalised;
}

/** Refuses an end before the start, from the values written or, on an update, those stored. */
function datesInOrder(values: Record<string, unknown>, current: Record<string, unknown> | undefined): FieldProblem[] {
  // Validated or stored dates (strings); a missing one makes the test below false.
  const start = (values.start_date ?? current?.start_date) as string;
  const end = (values.end_date ?? current?.end_date) as string;
  return start && end && end < start
    ? [{ field: 'end_date', description: 'end_date may not be before start_date', rule: 'notBeforeStart' }]
    : [];
}

/**
 * Overtime adds its minutes to the day, so it needs them: `time` a whole number from 1, from the
 * values written or, on an update, those stored (docs/API.md "Schedules and capacity"). A `time`
 * sent but not in the values was refused already by its field's own rule, and is not named twice.
 */
function overtimeHasMinutes(
  values: Record<string, unknown>,
  current: Record<string, unknown> | undefined,
  input: Record<string, unknown>,
): FieldProblem[] {
  const type = values.type ?? current?.type;
  if (type !== 'overtime' || ('time' in input && !('time' in values))) return [];
  const time = 'time' in values ? values.time : current?.time;
  const description = 'time is required for overtime: the minutes added per day, a whole number from 1 to 1440';
  // Its field's rule has checked a time written: a whole number from 0 to 1440, or null.
  if (typeof time !== 'number') return [{ field: 'time', description, rule: 'required' }];
  return time >= 1 ? [] : [{ field: 'time', description, rule: 'minimum', limit: 1 }];
}

export const scheduleDeviationModule: ResourceModule = {
  spec: scheduleDeviationSpec,
  table: tables.schedule_deviation,
  path: '/resource/:resource_id/schedule_deviation',
  parents: [{ param: 'resource_id', field: 'resource_id', module: () => resourceModule }],
  rules: {
    check: (_ctx, _tx, values, current, _parent, input = {}) => [
      ...datesInOrder(values, current),
      ...overtimeHasMinutes(values, current, input),
    ],
    present(_ctx, records) {
      // A stored deviation is the resource's own; a derived one names its company holiday.
      for (const record of records) record.company_holiday_id ??= null;
    },
  },
  // The company holidays a resource has, as its deviations (planning/company-holidays.ts).
  derived: {
    async list(ctx, match) {
      const company = await readCompanyHolidays(ctx.records);
      if (company.holidays.length === 0 || typeof match.resource_id !== 'string') return [];
      const own = await ctx.records.getWhereIn(tables.schedule_deviation, 'resource_id', [match.resource_id]);
      return derivedDeviations(match.resource_id, own, company);
    },
    readOnly: (record) => ({
      field: 'company_holiday_id',
      description:
        `this deviation is the company holiday "${String(record.description)}" as this resource has it, read-only here: ` +
        `change or delete it as /v1/company_holiday/${String(record.company_holiday_id)}`,
    }),
  },
};

export const companyHolidayModule: ResourceModule = {
  spec: companyHolidaySpec,
  table: tables.company_holiday,
  path: '/company_holiday',
  rules: {
    check(_ctx, _tx, values, current) {
      const problems = datesInOrder(values, current);
      // datesInOrder has checked both as dates (YYYY-MM-DD text) when it found no problem.
      const start = (values.start_date ?? current?.start_date) as string | undefined;
      const end = (values.end_date ?? current?.end_date) as string | undefined;
      if (problems.length === 0 && start && end && daysBetween(start, end) >= maxHolidayDays)
        problems.push({ field: 'end_date', description: `a holiday lasts at most ${maxHolidayDays} days` });
      if (typeof values.description === 'string' && values.description.trim() === '')
        problems.push({ field: 'description', description: 'description names the holiday' });
      return problems;
    },
  },
};

export const resourceModule: ResourceModule = {
  spec: resourceSpec,
  table: tables.resource,
  path: '/resource',
  relations: {
    schedule_deviations: { kind: 'hasMany', target: 'schedule_deviation', foreignKey: 'resource_id', owned: true },
    // The public API's name for them. A resource's weekly hours are its `workdays`, one pattern
    // for every date; what is stored per period are its deviations (docs/API.md "Relations").
    schedules: { kind: 'hasMany', target: 'schedule_deviation', foreignKey: 'resource_id' },
    // The work it can do: activities are done by resources of their resource_type, as capacity
    // by resource type counts them.
    activities: { kind: 'hasMany', target: 'activity', foreignKey: 'resource_type', localKey: 'type' },
    cards: {
      kind: 'manyToMany',
      target: 'card',
      link: 'card_resource',
      ownerKey: 'resource_id',
      targetKey: 'card_id',
    },
    groups: {
      kind: 'manyToMany',
      target: 'group',
      link: 'group_resource',
      ownerKey: 'resource_id',
      targetKey: 'group_id',
    },
    // The public API's related resources. Its record does not say what relates them; here they
    // are the resources in a group with this one (its team, its machine park), read only
    // (docs/API.md "Relations").
    resources: { kind: 'peers', target: 'resource', link: 'group_resource', ownerKey: 'resource_id', sharedKey: 'group_id' },
  },
  rules: {
    async check(ctx, tx, values, current, _parent, input = {}) {
      const problems = await checkBoards(tx, values, current);
      // The public API's first day of a new pattern of workdays: not offered (workdays apply to
      // every date here), so a date sent for it is refused by name rather than dropped in
      // silence; null (as read back) is no change (docs/API.md "Schedules and capacity").
      if (
        input.workdays_start_date !== undefined &&
        input.workdays_start_date !== null &&
        input.workdays_start_date !== '' &&
        ctx.origin !== 'sync'
      ) {
        problems.push({
          field: 'workdays_start_date',
          description: "workdays_start_date is not offered: a resource's workdays apply to every date; send null or leave it out",
        });
      }
      // Validated or stored: a date string or null.
      const start = (values.start_date ?? current?.start_date) as string | null;
      const end = (values.end_date ?? current?.end_date) as string | null;
      if (start && end && end < start)
        problems.push({ field: 'end_date', description: 'end_date may not be before start_date', rule: 'notBeforeStart' });
      if (problems.length === 0) await normaliseBoards(tx, values);
      return problems;
    },
  } satisfies ResourceRules<typeof resourceSpec>,
};
