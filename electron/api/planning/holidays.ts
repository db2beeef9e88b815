/**
 * Company holidays: one day (or range) off entered once for every resource, a group or a list of
 * resources, stored as one schedule deviation of type `holiday` per resource (docs/API.md
 * "Absences and holidays"). Each deviation is written by the resource's normal create, so it
 * gets its change-log row, outbox row and webhook like any write, and syncs. A holiday is
 * known by its description and first day: a resource that has it already does not get it twice.
 */
import type { BodyOf } from '../../../shared/operation.js';
import { maxHolidayRows, type addHolidayOperation } from '../../../shared/operations/holidays.js';
import type { StoredRecord } from '../../store/environment-store.js';
import { ApiError } from '../errors.js';
import type { RecordWrites } from '../../store/record-store.js';
import { createSteps, deleteRecordSteps } from '../records.js';
import { onRecords } from '../store-steps.js';
import { moduleNamed } from '../registry.js';
import type { RequestContext } from '../resource.js';
import { tables } from '../tables.js';

/** One holiday: its name, days and, for a part day, the minutes off per day (null: whole days). */
export interface Holiday {
  description: string;
  start_date: string;
  end_date: string;
  time: number | null;
}

/** Who gets the holidays: every resource that is not archived, a group's members, or the resources named. */
export interface HolidayTarget {
  group_id?: string;
  resource_ids?: string[];
}

type HolidayInput = BodyOf<typeof addHolidayOperation>;

/** The holiday a checked body names: its description trimmed, one day and whole days unless it says otherwise. */
export function holidayOf(input: HolidayInput): Holiday {
  return {
    description: input.description.trim(),
    start_date: input.start_date,
    end_date: input.end_date ?? input.start_date,
    time: input.time ?? null,
  };
}

/** The target of a checked body: a repeated resource id counts once. */
export function targetOf(input: HolidayTarget): HolidayTarget {
  if (input.group_id !== undefined) return { group_id: input.group_id };
  if (input.resource_ids !== undefined) return { resource_ids: [...new Set(input.resource_ids)] };
  return {};
}

/** The resources a target names; an unknown group or resource is a 422 naming it. */
async function targetResources(tx: RecordWrites, target: HolidayTarget): Promise<StoredRecord[]> {
  if (target.group_id) {
    if (!(await tx.get(tables.group, target.group_id)))
      throw ApiError.rule('group_id', `group_id names no Group with id ${target.group_id}`);
    const members = (await tx.getWhereIn(tables.group_resource, 'group_id', [target.group_id])).map((link) => link.resource_id);
    return (await tx.getWhereIn(tables.resource, 'id', members)).filter((r) => r.archived_at === null);
  }
  if (target.resource_ids) {
    const found = await tx.getWhereIn(tables.resource, 'id', target.resource_ids);
    const missing = target.resource_ids.filter((id) => !found.some((r) => r.id === id));
    if (missing.length > 0) throw ApiError.rule('resource_ids', `resource_ids names no Resource with id ${missing.join(', ')}`);
    return found;
  }
  return (await tx.list(tables.resource, { match: { archived_at: null }, limit: 1_000_000, offset: 0 })).rows;
}

const sameHoliday = (deviation: StoredRecord, holiday: Holiday) =>
  deviation.type === 'holiday' && deviation.start_date === holiday.start_date && deviation.description === holiday.description;

export interface HolidaysAdded {
  /** The deviations written, one per resource and holiday that was not there yet. */
  created: StoredRecord[];
  /** Distinct holidays asked for, and the resources they were for. */
  holidays: number;
  resources: number;
}

/**
 * Writes each holiday for each target resource that does not have it yet, in `tx`, the
 * request's command: a refused row leaves nothing written.
 */
export async function addHolidays(
  ctx: RequestContext,
  tx: RecordWrites,
  holidays: readonly Holiday[],
  target: HolidayTarget,
): Promise<HolidaysAdded> {
  const resources = await targetResources(tx, target);
  if (holidays.length * resources.length > maxHolidayRows) {
    throw ApiError.rule('resource_ids', `one request writes at most ${maxHolidayRows} deviations (holidays × resources)`);
  }
  const existing: StoredRecord[] = await tx.getWhereIn(
    tables.schedule_deviation,
    'resource_id',
    resources.map((r) => r.id),
  );
  const created: StoredRecord[] = [];
  for (const resource of resources) {
    const own = existing.filter((d) => d.resource_id === resource.id);
    for (const holiday of holidays) {
      if (own.some((d) => sameHoliday(d, holiday))) continue;
      const module = moduleNamed('schedule_deviation');
      const deviation = await onRecords(tx, createSteps(ctx, module, { ...holiday, type: 'holiday' }, { resource_id: resource.id }));
      own.push(deviation);
      created.push(deviation);
    }
  }
  return { created, holidays: holidays.length, resources: resources.length };
}

/** A company holiday as the Holidays screen lists it: one row for all its resources' deviations. */
export interface CompanyHoliday extends Holiday {
  resource_ids: string[];
}

/** Every holiday-type deviation, grouped by description and first day, in date order. */
export async function listHolidays(ctx: RequestContext): Promise<CompanyHoliday[]> {
  const byKey = new Map<string, CompanyHoliday>();
  const { rows } = await ctx.records.list(tables.schedule_deviation, { match: { type: 'holiday' }, limit: 1_000_000, offset: 0 });
  for (const d of rows) {
    const key = `${d.start_date}\u0000${d.description ?? ''}`;
    const entry = byKey.get(key);
    if (entry) entry.resource_ids.push(d.resource_id);
    else
      byKey.set(key, {
        description: d.description ?? '',
        start_date: d.start_date,
        end_date: d.end_date,
        time: d.time,
        resource_ids: [d.resource_id],
      });
  }
  return [...byKey.values()].sort((a, b) => a.start_date.localeCompare(b.start_date) || a.description.localeCompare(b.description));
}

/** Deletes a company holiday from every resource that has it (soft deletes, so they sync), in `tx`; the number deleted. */
export async function removeHoliday(ctx: RequestContext, tx: RecordWrites, description: string, startDate: string): Promise<number> {
  const match = { type: 'holiday', start_date: startDate };
  const found = (await tx.list(tables.schedule_deviation, { match, limit: 1_000_000, offset: 0 })).rows.filter(
    (d) => d.description === description,
  );
  for (const deviation of found) {
    await onRecords(tx, deleteRecordSteps(ctx, moduleNamed('schedule_deviation'), deviation.id, { resource_id: deviation.resource_id }));
  }
  return found.length;
}
