/**
 * Reports read through the asynchronous store boundary (docs/architecture.md "The asynchronous
 * store boundary") and give the same answer on both engines: a workshop written through
 * the API into SQLite, copied into a real PostgreSQL cluster (copy-from-sqlite.ts), and the time
 * report, the payroll summary and the printed plan built from each. The PostgreSQL context has no synchronous store
 * (contextOnRecords): any use of one throws, so a report that read through it would fail here.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFilter } from '../../shared/filter.js';
import { planToPrint } from '../../electron/api/print/print-plan.js';
import { tables } from '../../electron/api/tables.js';
import { buildPayroll } from '../../electron/api/time-tracking/payroll.js';
import { buildReport, type ReportRequest } from '../../electron/api/time-tracking/report.js';
import { copyToPostgres } from '../../electron/store/postgres/copy-from-sqlite.js';
import { PostgresRecordStore } from '../../electron/store/postgres/record-store.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { must } from '../helpers/bench-seed.js';
import { startTeamDatabase, type TeamDatabase } from '../helpers/postgres.js';
import { recordsOf } from '../../electron/store/record-store.js';
import { contextOnRecords, requestContext, type RequestContext } from '../../electron/api/resource.js';

let api: TestApi;
let team: TeamDatabase<1>;
let sqlite: RequestContext;
let postgres: RequestContext;
let boardId: string;
let annaId: string;

// A stand-in whose every property access throws: nothing typed is ever read from it.

const entry = (body: Record<string, unknown>) => must(api, 'POST', '/v1/time_tracking', body);

beforeAll(async () => {
  api = await startTestApi({ environment: 'workshop', key: 'workshop-key-123' });
  const board = await must(api, 'POST', '/v1/board?with=stages', {
    name: 'Workshop',
    stages: [
      { name: 'Sawing', priority: 0 },
      { name: 'Welding', priority: 1 },
    ],
    statuses: [{ name: 'To do', entry: true }],
  });
  boardId = board.id;
  const [sawing, welding] = (board.stages as { id: string }[]).map((s) => s.id);
  const billed = await must(api, 'POST', '/v1/activity', { description: 'Welding', hourly_rate: 50, billable: true });
  const cleaning = await must(api, 'POST', '/v1/activity', { description: 'Cleaning', hourly_rate: 20, billable: false });
  const order = await must(api, 'POST', '/v1/collection', { name: 'SO-1001 Ørsted B.V.', board_id: boardId });
  const cards = [
    await must(api, 'POST', `/v1/collection/${order.id}/card`, {
      name: 'Frame',
      stage_id: sawing,
      start_date: '2026-11-02',
      end_date: '2026-11-03',
    }),
    await must(api, 'POST', `/v1/collection/${order.id}/card`, {
      name: 'Frame',
      stage_id: welding,
      start_date: '2026-11-03',
      end_date: '2026-11-05',
    }),
  ];
  for (const email of ['anna@example.com', 'ben@example.com']) await must(api, 'POST', '/v1/user', { email, role: 'member' });
  const users = (await must(api, 'GET', '/v1/user?sort=email')).data as { id: string }[];
  annaId = users[0]!.id;
  const benId = users[1]!.id;
  // Anna's resource works Monday to Friday, 8 h, and is sick on Wednesday: the payroll summary's schedule.
  const welder = await must(api, 'POST', '/v1/resource', {
    name: 'Anna (welder)',
    workdays: { '1': 8, '2': 8, '3': 8, '4': 8, '5': 8, '6': null, '7': null },
  });
  await must(api, 'POST', `/v1/resource/${welder.id}/schedule_deviation`, {
    type: 'sick',
    start_date: '2026-11-04',
    end_date: '2026-11-04',
    time: null,
  });
  await must(api, 'PUT', `/v1/user/${annaId}`, { resource_id: welder.id });
  await entry({
    user_id: annaId,
    card_id: cards[0].id,
    activity_id: billed.id,
    start: '2026-11-02T07:00:00Z',
    end: '2026-11-02T11:00:00Z',
  });
  // No card; overlaps the next one.
  await entry({ user_id: annaId, activity_id: cleaning.id, start: '2026-11-02T12:00:00Z', end: '2026-11-02T13:30:00Z' });
  await entry({
    user_id: annaId,
    card_id: cards[1].id,
    activity_id: billed.id,
    start: '2026-11-02T13:00:00Z',
    end: '2026-11-02T15:00:00Z',
  });
  // Over local midnight: two lines.
  await entry({
    user_id: benId,
    card_id: cards[1].id,
    activity_id: billed.id,
    start: '2026-11-03T21:00:00Z',
    end: '2026-11-04T05:00:00Z',
    overnight: true,
  });
  await entry({ user_id: benId, activity_id: cleaning.id, start: '2026-11-05T08:00:00Z', duration: 45 });

  team = await startTeamDatabase('reports', { nodes: 1 });
  const copied = await copyToPostgres(api.dataDir, team.nodes[0]);
  expect(copied.matches).toBe(true);
  const caller = { kind: 'api-key' as const, environment: api.environment, keyId: 'report-engines' };
  const store = api.dataDir.environment(api.environment.id);
  sqlite = requestContext(caller, recordsOf(store));
  postgres = contextOnRecords(sqlite, new PostgresRecordStore(team.nodes[0], api.environment.id));
}, 120_000);

afterAll(async () => {
  await team?.stop();
  await api?.app.close();
  if (api) {
    api.dataDir.close();
    rmSync(api.dataDir.path, { recursive: true, force: true });
  }
});

const week: ReportRequest = {
  start: '2026-11-02',
  end: '2026-11-08',
  timezone: 'Europe/Amsterdam',
  groupBy: ['users', 'days'],
  durationFormat: 'decimal',
  filters: {},
  title: 'Time report',
};

/** A report but for the moment it was made. */
const withoutTime = ({ generated_at: _made, ...report }: Awaited<ReturnType<typeof buildReport>>) => report;

describe('the API parts on the asynchronous store, on both engines', () => {
  it('builds the same time report from SQLite and from PostgreSQL', async () => {
    const fromSqlite = await buildReport(sqlite, week);
    expect(fromSqlite.lines).toHaveLength(6);
    expect(fromSqlite.total_minutes).toBe(240 + 90 + 120 + 480 + 45);
    expect(fromSqlite.lines.filter((line) => line.overlaps)).toHaveLength(2);
    expect(fromSqlite.lines.map((line) => line.card)).toContain('SO-1001 Ørsted B.V. · Frame · Welding');
    expect(withoutTime(await buildReport(postgres, week))).toEqual(withoutTime(fromSqlite));
  });

  it('builds the same filtered report, with the filter in words and overlaps against the whole period', async () => {
    const filtered: ReportRequest = { ...week, groupBy: ['activities'], filter: parseFilter(`user_id:eq:${annaId}`) };
    const fromSqlite = await buildReport(sqlite, filtered);
    expect(fromSqlite.filter_text).toBe('user: anna@example.com');
    expect(fromSqlite.lines).toHaveLength(3);
    expect(withoutTime(await buildReport(postgres, filtered))).toEqual(withoutTime(fromSqlite));
  });

  it('makes the same payroll summary, with the scheduled hours and the sick day, from SQLite and from PostgreSQL', async () => {
    const request = { ...week, per: 'day' as const };
    const fromSqlite = await buildPayroll(sqlite, request);
    const anna = fromSqlite.users.find((user) => user.user_id === annaId)!;
    expect(anna.scheduled_minutes).toBe(5 * 480);
    expect(anna.absence_minutes).toBe(480);
    const { generated_at: _made, ...rest } = fromSqlite;
    const { generated_at: _also, ...fromPostgres } = await buildPayroll(postgres, request);
    expect(fromPostgres).toEqual(rest);
  });

  it('prints the same plan from SQLite and from PostgreSQL', async () => {
    const board = (await sqlite.records.get(tables.board, boardId))!;
    const request = { start: '2026-11-02', end: '2026-11-08' };
    const made = new Date('2026-11-27T08:00:00Z');
    const fromSqlite = await planToPrint(sqlite, board, request, made);
    expect(fromSqlite.cards.map((card) => card.name)).toEqual([
      'SO-1001 Ørsted B.V. · Frame · Sawing',
      'SO-1001 Ørsted B.V. · Frame · Welding',
    ]);
    expect(await planToPrint(postgres, board, request, made)).toEqual(fromSqlite);
  });
});
