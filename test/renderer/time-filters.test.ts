import { describe, expect, it } from 'vitest';
import { parseFilter } from '../../shared/filter.js';
import {
  cleanGroupings,
  exportFileName,
  exportQuery,
  isPayrollPackage,
  payrollFileName,
  payrollFileQuery,
  payrollSaveFormat,
  reportEntryCount,
  withinOneMonth,
  type DialogFormat,
} from '../../renderer/views/time/export-request.js';
import { entryListFilter, exportFilter, markExportedFilter, noTimeFilters, noUser } from '../../renderer/views/time/time-filters.js';

const period = { from: '2026-11-15T23:00:00Z', to: '2026-11-22T23:00:00Z' };
const board = '01a20180-773b-7000-9db2-ac117dfa3de6';

describe('time filters as API filter text', () => {
  it('filters the entries list on the period and each chosen filter', () => {
    expect(entryListFilter(noTimeFilters, period)).toBe('start:gte:2026-11-15T23:00:00Z,and,start:lt:2026-11-22T23:00:00Z');
    const text = entryListFilter({ ...noTimeFilters, userId: noUser, boardId: board, status: 'pending' }, period);
    expect(text).toBe(
      `start:gte:2026-11-15T23:00:00Z,and,start:lt:2026-11-22T23:00:00Z,and,user_id:eq:null,and,status:eq:pending,and,card.board_id:eq:'${board}'`,
    );
  });

  it('filters on the collection rather than the board when both are chosen', () => {
    expect(entryListFilter({ ...noTimeFilters, boardId: board, collectionId: 'c1' }, period)).toContain("card.collection_id:eq:'c1'");
    expect(entryListFilter({ ...noTimeFilters, boardId: board, collectionId: 'c1' }, period)).not.toContain('board_id');
  });

  it('filters the report on the same choices, a board or collection through the entry’s card', () => {
    const none = { userId: '', boardId: '', collectionId: '', activityId: '', status: '' as const, notExported: false };
    expect(exportFilter(none)).toBe('');
    expect(exportFilter({ ...none, userId: 'u1', status: 'approved', notExported: true, boardId: board })).toBe(
      `user_id:eq:'u1',and,status:eq:approved,and,card.board_id:eq:'${board}',and,synchronized_at:eq:null`,
    );
    expect(exportFilter({ ...none, boardId: board, collectionId: 'c1' })).toBe("card.collection_id:eq:'c1'");
  });

  it('marks as exported what overlaps the period, as the report counts it', () => {
    expect(markExportedFilter('', period)).toBe('start:lt:2026-11-22T23:00:00Z,and,(end:gt:2026-11-15T23:00:00Z,or,end:eq:null)');
    expect(markExportedFilter('status:eq:approved', period)).toMatch(/,and,status:eq:approved$/);
  });

  it('writes filters the API’s grammar accepts', () => {
    const texts = [
      entryListFilter({ ...noTimeFilters, userId: 'u1', boardId: board, activityId: 'a1', status: 'draft' }, period),
      markExportedFilter(
        exportFilter({ userId: noUser, boardId: board, collectionId: '', activityId: 'a1', status: '', notExported: true }),
        period,
      ),
    ];
    for (const text of texts) expect(() => parseFilter(text), text).not.toThrow();
  });
});

describe('the export request', () => {
  const choices = {
    range: { start: '2026-11-01', end: '2026-11-30' },
    groupBy: ['users', '', 'days'] as const,
    durationFormat: 'hh:mm' as const,
    timeZone: 'Europe/Amsterdam',
    filter: '',
  };

  it('sends the groupings in order, each once, at most three', () => {
    expect(cleanGroupings(['users', '', 'days'])).toEqual(['users', 'days']);
    expect(cleanGroupings(['days', 'days', 'weeks', 'users', 'boards'])).toEqual(['days', 'weeks', 'users']);
    expect(exportQuery({ ...choices, groupBy: [...choices.groupBy] }, 'csv')).toEqual({
      start: '2026-11-01',
      end: '2026-11-30',
      format: 'csv',
      duration_format: 'hh:mm',
      timezone: 'Europe/Amsterdam',
      group_by: 'users,days',
    });
  });

  it('leaves out an empty filter and grouping', () => {
    const query = exportQuery({ ...choices, groupBy: [] }, 'json');
    expect(query).not.toHaveProperty('filter');
    expect(query).not.toHaveProperty('group_by');
    expect(exportQuery({ ...choices, groupBy: [], filter: 'status:eq:approved' }, 'xlsx').filter).toBe('status:eq:approved');
  });

  it('asks a payroll package for its file of one month, without grouping or duration format', () => {
    const query = payrollFileQuery({ ...choices, groupBy: [...choices.groupBy], filter: 'synchronized_at:eq:null' }, 'loket');
    expect(query).toEqual({
      format: 'loket',
      start: '2026-11-01',
      end: '2026-11-30',
      timezone: 'Europe/Amsterdam',
      filter: 'synchronized_at:eq:null',
    });
    expect(payrollFileQuery({ ...choices, groupBy: [] }, 'datev')).not.toHaveProperty('filter');
    const formats: DialogFormat[] = ['csv', 'pdf', 'nmbrs', 'loket', 'datev'];
    expect(formats.map(isPayrollPackage)).toEqual([false, false, true, true, true]);
    expect(withinOneMonth({ start: '2026-11-01', end: '2026-11-30' })).toBe(true);
    expect(withinOneMonth({ start: '2026-11-15', end: '2026-12-14' })).toBe(false);
    expect(withinOneMonth({ start: '2025-11-01', end: '2026-11-30' })).toBe(false);
    expect(payrollFileName({ start: '2026-11-01', end: '2026-11-30' }, 'nmbrs')).toBe('nmbrs-hours-2026-11.csv');
    expect(payrollFileName({ start: '2026-11-01', end: '2026-11-30' }, 'datev')).toBe('datev-lodas-2026-11.txt');
    expect([payrollSaveFormat('nmbrs'), payrollSaveFormat('loket'), payrollSaveFormat('datev')]).toEqual(['csv', 'csv', 'txt']);
  });

  it('names the file after the period, and counts entries not lines', () => {
    expect(exportFileName({ start: '2026-11-01', end: '2026-11-30' }, 'xlsx')).toBe('time-report-2026-11-01-2026-11-30.xlsx');
    expect(reportEntryCount({ lines: [{ entry_id: 'a' }, { entry_id: 'a' }, { entry_id: 'b' }] as never })).toBe(2);
  });
});
