/**
 * Company holidays as each resource has them (docs/API.md "Absences and holidays"). A company
 * holiday is kept once, for every resource or for a group's members, and read into each
 * resource's days when they are counted: a resource added after it, or someone who joins the
 * group later, has it too, in schedules, capacity, planning and promise dates alike.
 *
 * What a resource gets from a company holiday reads as one of its schedule deviations, of type
 * `holiday`, with an id made from the holiday's and the resource's (the same on every replica
 * and every node) and `company_holiday_id` naming the holiday: a derived, read-only deviation.
 *
 * A holiday is known by its description and first day. A resource has each at most once: a
 * deviation of its own of type `holiday` with both (a copy the holiday calls made per resource
 * before company holidays, or one entered by hand) stands for it; else the holiday for everyone,
 * else a group's, the oldest first. So a holiday entered twice, or copied before and entered
 * again, never takes a part day off twice.
 */
import { createHash } from 'node:crypto';
import type { RecordReads } from '../../store/record-store.js';
import { tables, type Stored } from '../tables.js';

/** The company holidays, and for those of a group, who is in it. */
export interface CompanyHolidays {
  /** For everyone first, then those of a group; each the oldest first. */
  holidays: readonly Stored<'company_holiday'>[];
  /** Group id → its members' ids. */
  members: ReadonlyMap<string, ReadonlySet<string>>;
}

export const noCompanyHolidays: CompanyHolidays = { holidays: [], members: new Map() };

/** A company holiday as one resource's deviation: a stored deviation's fields, and the holiday it comes from. */
export type DerivedDeviation = Stored<'schedule_deviation'> & { company_holiday_id: string };

/** Every live company holiday, and the members of the groups they name, in two queries at most. */
export async function readCompanyHolidays(reads: RecordReads): Promise<CompanyHolidays> {
  const { rows } = await reads.list(tables.company_holiday, { limit: 1_000_000, offset: 0 });
  if (rows.length === 0) return noCompanyHolidays;
  const groupIds = [...new Set(rows.flatMap((h) => (h.group_id === null ? [] : [h.group_id])))];
  const members = new Map<string, Set<string>>(groupIds.map((id) => [id, new Set()]));
  if (groupIds.length > 0) {
    for (const link of await reads.getWhereIn(tables.group_resource, 'group_id', groupIds))
      members.get(link.group_id)?.add(link.resource_id);
  }
  // Ids are time-ordered (UUIDv7): by id is the oldest first.
  const holidays = [...rows].sort((a, b) => Number(a.group_id !== null) - Number(b.group_id !== null) || (a.id < b.id ? -1 : 1));
  return { holidays, members };
}

/** Whether a company holiday holds for the resource: for everyone, or for a group it is in. */
export function holdsFor(holiday: Stored<'company_holiday'>, resourceId: string, company: CompanyHolidays): boolean {
  return holiday.group_id === null || company.members.get(holiday.group_id)?.has(resourceId) === true;
}

/** What names a holiday: its first day and description. */
export function holidayKey(holiday: { start_date: string; description: string | null }): string {
  return `${holiday.start_date}\u0000${holiday.description ?? ''}`;
}

/**
 * The company holidays a resource has, as its derived deviations, leaving out each holiday it
 * has already (see the file head): `own` are its stored deviations.
 */
export function derivedDeviations(
  resourceId: string,
  own: readonly Stored<'schedule_deviation'>[],
  company: CompanyHolidays,
): DerivedDeviation[] {
  if (company.holidays.length === 0) return [];
  const taken = new Set(own.filter((d) => d.type === 'holiday').map(holidayKey));
  const derived: DerivedDeviation[] = [];
  for (const holiday of company.holidays) {
    const key = holidayKey(holiday);
    if (taken.has(key) || !holdsFor(holiday, resourceId, company)) continue;
    taken.add(key);
    derived.push(derivedDeviation(holiday, resourceId));
  }
  return derived;
}

export function derivedDeviation(holiday: Stored<'company_holiday'>, resourceId: string): DerivedDeviation {
  return {
    id: derivedDeviationId(holiday.id, resourceId),
    resource_id: resourceId,
    description: holiday.description,
    type: 'holiday',
    start_date: holiday.start_date,
    end_date: holiday.end_date,
    time: holiday.time,
    external_ref: null,
    created_at: holiday.created_at,
    updated_at: holiday.updated_at,
    company_holiday_id: holiday.id,
  };
}

/**
 * The id of a resource's derived deviation: the holiday id's first 48 bits (its time, so a list
 * by id keeps creation order) and 74 bits of a hash of both ids, as a version 8 UUID. The same
 * wherever it is worked out, so a client that lists it twice, or on two replicas, sees one id.
 */
export function derivedDeviationId(holidayId: string, resourceId: string): string {
  const hash = createHash('sha256').update(`${holidayId}/${resourceId}`).digest('hex');
  const time = holidayId.replace(/-/g, '').slice(0, 12);
  const variant = ((parseInt(hash[3]!, 16) & 0x3) | 0x8).toString(16);
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-8${hash.slice(0, 3)}-${variant}${hash.slice(4, 7)}-${hash.slice(7, 19)}`;
}
