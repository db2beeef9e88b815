/**
 * Company holidays entered once (docs/API.md "Absences and holidays"). A holiday for everyone
 * or for a group is one company holiday record: every resource, or every member of the group,
 * has it, whoever is added later (company-holidays.ts reads it into their days). A holiday for
 * resources named one by one is what it was before: a schedule deviation of type `holiday` on
 * each of them. Every record is written by its resource's normal create or delete, so it gets
 * its change-log row, outbox row and webhook like any write, and syncs.
 *
 * A holiday is known by its description and first day; a resource has it at most once. Holidays
 * the calls copied onto every resource before company holidays existed stay those resources'
 * deviations and keep counting; entering the holiday again for everyone (or importing the same
 * file again) makes it a company holiday and deletes the copies it stands for.
 */
import type { BodyOf } from '../../../shared/operation.js';
import { maxHolidayRows, type addHolidayOperation } from '../../../shared/operations/holidays.js';
import type { StoredRecord } from '../../../shared/fields.js';
import { ApiError } from '../errors.js';
import type { RecordReads, RecordWrites } from '../../store/record-store.js';
import { createRecord, deleteRecord } from '../records.js';
import { moduleNamed } from '../registry.js';
import type { RequestContext } from '../resource.js';
import { tables, type Stored } from '../tables.js';
import { derivedDeviation, holdsFor, holidayKey, readCompanyHolidays } from './company-holidays.js';

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

const everyResource = { match: { archived_at: null }, limit: 1_000_000, offset: 0 };

/** The resources named one by one; an unknown one is a 422 naming it. */
async function namedResources(tx: RecordWrites, ids: readonly string[]): Promise<Stored<'resource'>[]> {
  const found = await tx.getWhereIn(tables.resource, 'id', ids);
  const missing = ids.filter((id) => !found.some((r) => r.id === id));
  if (missing.length > 0) throw ApiError.rule('resource_ids', `resource_ids names no Resource with id ${missing.join(', ')}`);
  return found;
}

/** The resources that are not archived and that a company holiday of `groupId` (null: everyone's) holds for. */
async function resourcesOfScope(reads: RecordReads, groupId: string | null): Promise<Stored<'resource'>[]> {
  const resources = (await reads.list(tables.resource, everyResource)).rows;
  if (groupId === null) return resources;
  const members = new Set((await reads.getWhereIn(tables.group_resource, 'group_id', [groupId])).map((link) => link.resource_id));
  return resources.filter((r) => members.has(r.id));
}

const sameHoliday = (deviation: Stored<'schedule_deviation'>, holiday: Holiday) =>
  deviation.type === 'holiday' && holidayKey(deviation) === holidayKey(holiday);

/** A copy a holiday call made per resource before company holidays: the same days and minutes. */
const copyOf = (deviation: Stored<'schedule_deviation'>, holiday: Holiday) =>
  sameHoliday(deviation, holiday) && deviation.end_date === holiday.end_date && deviation.time === holiday.time;

export interface HolidaysAdded {
  /** The deviations the resources got, one per resource and holiday it did not have yet (derived ones for company holidays). */
  created: StoredRecord[];
  /** The company holidays written (none for resources named one by one). */
  companyHolidays: StoredRecord[];
  /** Distinct holidays asked for, and the resources they are for now. */
  holidays: number;
  resources: number;
}

/**
 * Writes the holidays in `tx`, the request's command (a refused row leaves nothing written):
 * for everyone or a group, each as a company holiday unless one with its description, first
 * day and group is there; for resources named one by one, a deviation on each that does not
 * have it yet.
 */
export async function addHolidays(
  ctx: RequestContext,
  tx: RecordWrites,
  holidays: readonly Holiday[],
  target: HolidayTarget,
): Promise<HolidaysAdded> {
  if (target.resource_ids) return addToResources(ctx, tx, holidays, await namedResources(tx, target.resource_ids));
  const groupId = target.group_id ?? null;
  if (groupId !== null && !(await tx.get(tables.group, groupId)))
    throw ApiError.rule('group_id', `group_id names no Group with id ${groupId}`);
  const resources = await resourcesOfScope(tx, groupId);
  const company = await readCompanyHolidays(tx);
  const own = await tx.getWhereIn(
    tables.schedule_deviation,
    'resource_id',
    resources.map((r) => r.id),
  );
  /** Whether the resource has the holiday already, from its own deviations or a company holiday. */
  const has = (resourceId: string, holiday: Holiday) =>
    own.some((d) => d.resource_id === resourceId && sameHoliday(d, holiday)) ||
    company.holidays.some((h) => holidayKey(h) === holidayKey(holiday) && holdsFor(h, resourceId, company));
  const created: StoredRecord[] = [];
  const written: StoredRecord[] = [];
  for (const holiday of holidays) {
    if (company.holidays.some((h) => h.group_id === groupId && holidayKey(h) === holidayKey(holiday))) continue;
    // createRecord writes a record of the module it is given: a company holiday.
    const record = (await createRecord(ctx, tx, moduleNamed('company_holiday'), {
      ...holiday,
      group_id: groupId,
    })) as Stored<'company_holiday'>;
    written.push(record);
    for (const resource of resources) if (!has(resource.id, holiday)) created.push(derivedDeviation(record, resource.id));
    // The copies it now stands for go, so the holiday is kept once (and a resource keeps it).
    for (const copy of own.filter((d) => copyOf(d, holiday))) await deleteDeviation(ctx, tx, copy);
  }
  return { created, companyHolidays: written, holidays: holidays.length, resources: resources.length };
}

/** Each holiday as a deviation of each resource that does not have it yet. */
async function addToResources(
  ctx: RequestContext,
  tx: RecordWrites,
  holidays: readonly Holiday[],
  resources: readonly Stored<'resource'>[],
): Promise<HolidaysAdded> {
  if (holidays.length * resources.length > maxHolidayRows) {
    throw ApiError.rule('resource_ids', `one request writes at most ${maxHolidayRows} deviations (holidays × resources)`);
  }
  const company = await readCompanyHolidays(tx);
  const existing = await tx.getWhereIn(
    tables.schedule_deviation,
    'resource_id',
    resources.map((r) => r.id),
  );
  const created: StoredRecord[] = [];
  for (const resource of resources) {
    const own: StoredRecord[] = existing.filter((d) => d.resource_id === resource.id);
    for (const holiday of holidays) {
      const hasIt =
        // `existing` holds the resources' schedule deviations.
        own.some((d) => d.type === 'holiday' && holidayKey(d as Stored<'schedule_deviation'>) === holidayKey(holiday)) ||
        company.holidays.some((h) => holidayKey(h) === holidayKey(holiday) && holdsFor(h, resource.id, company));
      if (hasIt) continue;
      const module = moduleNamed('schedule_deviation');
      const deviation = await createRecord(ctx, tx, module, { ...holiday, type: 'holiday' }, { resource_id: resource.id });
      own.push(deviation);
      created.push(deviation);
    }
  }
  return { created, companyHolidays: [], holidays: holidays.length, resources: resources.length };
}

function deleteDeviation(ctx: RequestContext, tx: RecordWrites, deviation: Stored<'schedule_deviation'>): Promise<void> {
  return deleteRecord(ctx, tx, moduleNamed('schedule_deviation'), deviation.id, { resource_id: deviation.resource_id });
}

/** A holiday as the Holidays screen lists it: one row per description and first day, whatever holds it. */
export interface ListedHoliday extends Holiday {
  /** A company holiday for everyone has it. */
  everyone: boolean;
  /** The groups whose company holidays have it. */
  group_ids: string[];
  company_holiday_ids: string[];
  /** The resources that have it now: those it holds for (not archived), and those with a copy of their own. */
  resource_ids: string[];
}

/** Every holiday, company holidays and holiday-type deviations together, one row per description and first day, in date order. */
export async function listHolidays(reads: RecordReads): Promise<ListedHoliday[]> {
  const company = await readCompanyHolidays(reads);
  const resources = (await reads.list(tables.resource, everyResource)).rows;
  const byKey = new Map<string, ListedHoliday & { has: Set<string> }>();
  const rowOf = (holiday: Holiday) => {
    const key = holidayKey(holiday);
    let row = byKey.get(key);
    if (!row) {
      const { description, start_date, end_date, time } = holiday;
      row = {
        description,
        start_date,
        end_date,
        time,
        everyone: false,
        group_ids: [],
        company_holiday_ids: [],
        resource_ids: [],
        has: new Set(),
      };
      byKey.set(key, row);
    }
    return row;
  };
  for (const holiday of company.holidays) {
    const row = rowOf(holiday);
    row.company_holiday_ids.push(holiday.id);
    if (holiday.group_id === null) row.everyone = true;
    else if (!row.group_ids.includes(holiday.group_id)) row.group_ids.push(holiday.group_id);
    for (const resource of resources) if (holdsFor(holiday, resource.id, company)) row.has.add(resource.id);
  }
  const { rows } = await reads.list(tables.schedule_deviation, { match: { type: 'holiday' }, limit: 1_000_000, offset: 0 });
  for (const deviation of rows) rowOf({ ...deviation, description: deviation.description ?? '' }).has.add(deviation.resource_id);
  return [...byKey.values()]
    .map(({ has, ...row }) => ({ ...row, resource_ids: [...has] }))
    .sort((a, b) => a.start_date.localeCompare(b.start_date) || a.description.localeCompare(b.description));
}

/**
 * Deletes a holiday from everyone who has it (soft deletes, so they sync), in `tx`: the company
 * holidays and the resources' own holiday deviations with that description and first day.
 * Answers how many resources had it; undefined when there is no such holiday.
 */
export async function removeHoliday(
  ctx: RequestContext,
  tx: RecordWrites,
  description: string,
  startDate: string,
): Promise<number | undefined> {
  const key = holidayKey({ description, start_date: startDate });
  const listed = (await listHolidays(tx)).find((row) => holidayKey(row) === key);
  if (!listed) return undefined;
  for (const id of listed.company_holiday_ids) await deleteRecord(ctx, tx, moduleNamed('company_holiday'), id);
  const { rows } = await tx.list(tables.schedule_deviation, {
    match: { type: 'holiday', start_date: startDate },
    limit: 1_000_000,
    offset: 0,
  });
  for (const deviation of rows.filter((d) => d.description === description)) await deleteDeviation(ctx, tx, deviation);
  return listed.resource_ids.length;
}
