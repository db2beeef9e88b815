/**
 * The Planning API calls of a resource's absences and of company holidays (docs/API.md
 * "Absences and holidays"). Absences are the resource's schedule deviations, the company
 * holidays it has among them (read-only, `company_holiday_id`); every query key starts with
 * `schedule_deviation`, so a change event for a deviation or a company holiday (made here, by
 * sync or by an integration; api/hooks.ts) refreshes them, and the planboard's capacity with them.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ListEnvelope } from '../../../shared/list.js';
import { maxLimit } from '../../../shared/list.js';
import type { BodyOf } from '../../../shared/operation.js';
import { addHolidayOperation, importHolidaysOperation } from '../../../shared/operations/holidays.js';
import type { ScheduleDeviation } from '../../../shared/resources/resource.js';
import { send } from '../../api/client.js';
import { callOperation } from '../../api/commands.js';
import { capacityKey } from '../../api/hooks.js';
import { apiPath } from '../../api/paths.js';
import { useApi } from '../../api/provider.js';

export type AbsenceType = ScheduleDeviation['type'];

/** One day of a resource's schedule, in minutes (GET /v1/resource/{id}/schedule). */
export interface ScheduleDay {
  date: string;
  scheduled: number;
  deviation: number;
  /** Minutes added by overtime deviations; `available` has them already. */
  overtime: number;
  available: number;
  /** Ids of the deviations that cover the day, overtime too. */
  deviations: string[];
}

/**
 * A holiday as the list has it (GET /v1/schedule_deviation/holidays): one row per description and
 * first day, the company's (for everyone, or a group's) and the copies given to resources one
 * by one before company holidays, together.
 */
export interface CompanyHoliday {
  description: string;
  start_date: string;
  end_date: string;
  time: number | null;
  everyone: boolean;
  group_ids: string[];
  company_holiday_ids: string[];
  /** The resources that have it now. */
  resource_ids: string[];
}

const absencesKey = (resourceId: string) => ['schedule_deviation', 'resource', resourceId] as const;
const scheduleKey = (resourceId: string, start: string, end: string, version: string) =>
  ['schedule_deviation', 'schedule', resourceId, start, end, version] as const;
const holidaysKey = ['schedule_deviation', 'holidays'] as const;

const absencesPath = (resourceId: string) => apiPath`/v1/resource/${resourceId}/schedule_deviation`;

export function useAbsences(resourceId: string) {
  const { transport } = useApi();
  return useQuery({
    queryKey: absencesKey(resourceId),
    queryFn: () =>
      send<ListEnvelope<ScheduleDeviation>>(transport, {
        method: 'GET',
        path: absencesPath(resourceId),
        query: { sort: 'start_date:asc', limit: String(maxLimit) },
      }),
  });
}

/**
 * `version` is the resource's `updated_at`: new hours per weekday read the schedule again. No
 * resource (`null`: a person who is none) reads nothing.
 */
export function useSchedule(resourceId: string | null, start: string, end: string, version: string) {
  const { transport } = useApi();
  return useQuery({
    queryKey: scheduleKey(resourceId ?? '', start, end, version),
    enabled: resourceId !== null,
    queryFn: () =>
      send<ListEnvelope<ScheduleDay>>(transport, {
        method: 'GET',
        path: apiPath`/v1/resource/${resourceId!}/schedule`,
        query: { filter: `date:gte:${start},and,date:lte:${end}`, limit: String(maxLimit) },
      }),
  });
}

export function useCompanyHolidays() {
  const { transport } = useApi();
  return useQuery({
    queryKey: holidaysKey,
    queryFn: () => send<{ data: CompanyHoliday[] }>(transport, { method: 'GET', path: '/v1/schedule_deviation/holidays' }),
  });
}

/** Invalidates what an absence changes: the absences, schedules and holidays, and the planboard's capacity. */
function useRefreshAbsences() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['schedule_deviation'] }),
      queryClient.invalidateQueries({ queryKey: capacityKey }),
    ]);
}

/** The fields an absence form sends. */
export interface AbsenceBody {
  type: AbsenceType;
  description: string | null;
  start_date: string | null;
  end_date: string | null;
  time: number | null;
}

export function useSaveAbsence(resourceId: string) {
  const { transport } = useApi();
  const refresh = useRefreshAbsences();
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: AbsenceBody }) =>
      send<ScheduleDeviation>(
        transport,
        id === null
          ? { method: 'POST', path: absencesPath(resourceId), body }
          : { method: 'PUT', path: `${absencesPath(resourceId)}/${encodeURIComponent(id)}`, body },
      ),
    onSuccess: refresh,
  });
}

export function useRemoveAbsence(resourceId: string) {
  const { transport } = useApi();
  const refresh = useRefreshAbsences();
  return useMutation({
    mutationFn: (id: string) =>
      send<unknown>(transport, { method: 'DELETE', path: `${absencesPath(resourceId)}/${encodeURIComponent(id)}` }),
    onSettled: refresh,
  });
}

export function useAddHoliday() {
  const { transport } = useApi();
  const refresh = useRefreshAbsences();
  return useMutation({
    mutationFn: (body: BodyOf<typeof addHolidayOperation>) => callOperation(transport, addHolidayOperation, { body }),
    onSuccess: refresh,
  });
}

export function useImportHolidays() {
  const { transport } = useApi();
  const refresh = useRefreshAbsences();
  return useMutation({
    mutationFn: (body: BodyOf<typeof importHolidaysOperation>) => callOperation(transport, importHolidaysOperation, { body }),
    onSuccess: refresh,
  });
}

export function useRemoveHoliday() {
  const { transport } = useApi();
  const refresh = useRefreshAbsences();
  return useMutation({
    mutationFn: (holiday: Pick<CompanyHoliday, 'description' | 'start_date'>) =>
      send<{ deleted: number }>(transport, {
        method: 'DELETE',
        path: '/v1/schedule_deviation/holidays',
        query: { description: holiday.description, start_date: holiday.start_date },
      }),
    onSettled: refresh,
  });
}

/** The groups a holiday may be given to. */
export function useGroups() {
  const { transport } = useApi();
  return useQuery({
    queryKey: ['group', 'list', 'holidays'],
    queryFn: () =>
      send<ListEnvelope<{ id: string; name: string }>>(transport, {
        method: 'GET',
        path: '/v1/group',
        query: { sort: 'name:asc', limit: String(maxLimit) },
      }),
  });
}
