/**
 * The overtime balance (docs/API.md "Overtime balance"), over real HTTP, on SQLite and
 * (vitest's postgres project) on PostgreSQL: three months with overtime, time for time and a
 * payout, each figure computed by hand below; a closed period freezing its closing balance; an
 * edit in an open period recomputing from there on.
 *
 * Piet, Europe/Amsterdam, his resource works 8 hours Monday to Friday (480 a day, 2,400 a
 * week). Overtime counts per ISO week (the default), a week cut at the first of the month:
 *
 * September 2026
 *   week 7–11 Sep   Mon–Thu 9 h, Fri 8 h         worked 2,640, expected 2,400     +240
 *   week 14–18 Sep  Mon 10 h, Tue 6 h, Wed–Fri 8 h  worked 2,400, expected 2,400      0
 *                   (per day it would be +120: Monday's 2 hours, Tuesday's 2 short not counted)
 *   week 21–25 Sep  Mon–Fri 10 h                 worked 3,000, expected 2,400     +600
 *   28–30 Sep       Mon–Wed 9 h (the week's September part)  1,620 − 1,440        +180
 *                                                                   September  +1,020
 * October 2026
 *   1–4 Oct         Thu 9 h; Fri 2 Oct time for time, whole day
 *                   worked 540, expected 480 (Fri is absent)                      +60
 *                   time for time taken: Friday's 480                             −480
 *   week 12–16 Oct  Mon–Fri 08:00–16:30 (8.5 h)  worked 2,550, expected 2,400     +150
 *   week 19–23 Oct  Mon–Thu 8 h, Fri 4 h; Fri 23 Oct time for time 240 minutes
 *                   worked 2,160, expected 2,400 − 240 = 2,160                      0
 *                   time for time taken                                           −240
 *                                                                   October      −510
 * November 2026
 *   week 2–6 Nov    Mon–Fri 9 h                  worked 2,700, expected 2,400     +300
 *   week 9–15 Nov   sick Wed 11 Nov (whole day); Mon, Tue, Thu, Fri 8 h, Sat 4 h
 *                   worked 2,160, expected 2,400 − 480 = 1,920                    +240
 *   Mon 30 Nov      payout of 5 hours, a correction of −300                       −300
 *                                                                   November     +240
 *
 * Balances: September 0 → 1,020; October 1,020 → 510; November 510 → 750.
 * Per day, September is 240 (Mon–Thu 60 each) + 120 + 600 (120 a day) + 180 (60 a day) = 1,140.
 */
import { expectErrorBody } from '../helpers/api-errors.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { overtimeCorrectionAdminMessage } from '../../electron/api/resources/overtime-correction.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { expectForbidden, startRolesInstance } from '../helpers/signed-in.js';
import { fixTheClock } from '../helpers/test-clock.js';

fixTheClock();

let api: TestApi;
const ids = { piet: '', resource: '', welding: '', settings: '' };
const eightHours = { '1': 8, '2': 8, '3': 8, '4': 8, '5': 8, '6': null, '7': null };

async function ok(method: string, path: string, body?: unknown): Promise<any> {
  const res = await api.http(method, path, body);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body;
}

/** Amsterdam local time as an instant: summer time (UTC+2) until Sunday 25 October 2026, then UTC+1. */
const local = (date: string, time: string) => new Date(`${date}T${time}:00${date < '2026-10-25' ? '+02:00' : '+01:00'}`).toISOString();

/** Piet works `hours` on `date` from 08:00. */
function work(date: string, hours: number) {
  const end = 8 * 60 + hours * 60;
  const clock = `${String(Math.floor(end / 60)).padStart(2, '0')}:${String(end % 60).padStart(2, '0')}`;
  return ok('POST', '/v1/time_tracking', {
    user_id: ids.piet,
    activity_id: ids.welding,
    start: local(date, '08:00'),
    end: local(date, clock),
  });
}

/** Piet's overtime figures in the payroll summary of a period. */
async function summaryOvertime(start: string, end: string) {
  const summary = await ok('GET', `/v1/time_tracking/payroll?start=${start}&end=${end}&timezone=Europe/Amsterdam`);
  const row = summary.users.find((u: { user_id: string }) => u.user_id === ids.piet);
  return row.overtime;
}

const balance = (opening: number, change: number) => ({
  opening_minutes: opening,
  change_minutes: change,
  closing_minutes: opening + change,
});

beforeAll(async () => {
  api = await startTestApi({ environment: 'overtime', key: 'overtime-key-123' });
  ids.welding = (await ok('POST', '/v1/activity', { description: 'Welding', hour_code: '100' })).id;
  ids.resource = (await ok('POST', '/v1/resource', { name: 'Piet', workdays: eightHours })).id;
  await ok('POST', '/v1/user', { email: 'piet@example.com', role: 'member', firstname: 'Piet', lastname: 'de Vries' });
  ids.piet = (await ok('GET', `/v1/user?filter=email:eq:'piet@example.com'`)).data[0].id;
  await ok('PUT', `/v1/user/${ids.piet}`, { resource_id: ids.resource, timezone: 'Europe/Amsterdam', payroll_ref: '7' });
  // A user without a resource has no balance, though she booked time.
  await ok('POST', '/v1/user', { email: 'office@example.com', role: 'member', firstname: 'Olga' });
  const olga = (await ok('GET', `/v1/user?filter=email:eq:'office@example.com'`)).data[0].id;
  ids.settings = (await ok('POST', '/v1/payroll_setting', { leave_hour_code: '320', sick_hour_code: '310' })).id;

  await ok('POST', '/v1/time_tracking', {
    user_id: olga,
    activity_id: ids.welding,
    start: local('2026-09-07', '08:00'),
    end: local('2026-09-07', '18:00'),
  });
  // September
  for (const date of ['2026-09-07', '2026-09-08', '2026-09-09', '2026-09-10']) await work(date, 9);
  await work('2026-09-11', 8);
  await work('2026-09-14', 10);
  await work('2026-09-15', 6);
  for (const date of ['2026-09-16', '2026-09-17', '2026-09-18']) await work(date, 8);
  for (const date of ['2026-09-21', '2026-09-22', '2026-09-23', '2026-09-24', '2026-09-25']) await work(date, 10);
  for (const date of ['2026-09-28', '2026-09-29', '2026-09-30']) await work(date, 9);
  // October
  await work('2026-10-01', 9);
  const deviation = (body: Record<string, unknown>) => ok('POST', `/v1/resource/${ids.resource}/schedule_deviation`, body);
  await deviation({ type: 'time_for_time', start_date: '2026-10-02', end_date: '2026-10-02' });
  for (const date of ['2026-10-12', '2026-10-13', '2026-10-14', '2026-10-15', '2026-10-16']) await work(date, 8.5);
  for (const date of ['2026-10-19', '2026-10-20', '2026-10-21', '2026-10-22']) await work(date, 8);
  await work('2026-10-23', 4);
  await deviation({ type: 'time_for_time', start_date: '2026-10-23', end_date: '2026-10-23', time: 240 });
  // November
  for (const date of ['2026-11-02', '2026-11-03', '2026-11-04', '2026-11-05', '2026-11-06']) await work(date, 9);
  await deviation({ type: 'sick', start_date: '2026-11-11', end_date: '2026-11-11' });
  for (const date of ['2026-11-09', '2026-11-10', '2026-11-12', '2026-11-13']) await work(date, 8);
  await work('2026-11-14', 4);
  await ok('POST', '/v1/overtime_correction', {
    user_id: ids.piet,
    date: '2026-11-30',
    minutes: -300,
    description: 'Paid out with November',
  });
}, 180_000);

afterAll(async () => {
  await api?.close();
});

describe('an overtime balance over three months with time off in between', () => {
  it('opens, changes and closes each month as computed by hand in the payroll summary', async () => {
    expect(await summaryOvertime('2026-09-01', '2026-09-30')).toEqual(balance(0, 1020));
    expect(await summaryOvertime('2026-10-01', '2026-10-31')).toEqual(balance(1020, -510));
    expect(await summaryOvertime('2026-11-01', '2026-11-30')).toEqual(balance(510, 240));
  });

  it('answers the same balance over the three months at /v1/time_tracking/overtime_balance; a user without a resource has none', async () => {
    const answer = await ok('GET', '/v1/time_tracking/overtime_balance?start=2026-09-01&end=2026-11-30');
    expect(answer).toMatchObject({ start: '2026-09-01', end: '2026-11-30', per: 'week' });
    expect(answer.users).toEqual([{ user_id: ids.piet, user: 'Piet de Vries', ...balance(0, 750) }]);
    const one = await ok('GET', `/v1/time_tracking/overtime_balance?start=2026-10-01&end=2026-10-31&user_id=${ids.piet}`);
    expect(one.users).toEqual([{ user_id: ids.piet, user: 'Piet de Vries', ...balance(1020, -510) }]);
    const summary = await ok('GET', '/v1/time_tracking/payroll?start=2026-09-01&end=2026-09-30&timezone=Europe/Amsterdam');
    expect(summary.users.find((u: { user: string }) => u.user === 'Olga')?.overtime).toBeNull();
  });

  it('counts per day when the payroll settings say so: a long Monday is overtime though a short Tuesday follows', async () => {
    await ok('PUT', `/v1/payroll_setting/${ids.settings}`, { overtime_per: 'day' });
    try {
      expect(await summaryOvertime('2026-09-01', '2026-09-30')).toEqual(balance(0, 1140));
    } finally {
      await ok('PUT', `/v1/payroll_setting/${ids.settings}`, { overtime_per: 'week' });
    }
    expect(await summaryOvertime('2026-09-01', '2026-09-30')).toEqual(balance(0, 1020));
  });

  it('shows the minutes per hour code beside the balance', async () => {
    const summary = await ok('GET', '/v1/time_tracking/payroll?start=2026-11-01&end=2026-11-30&timezone=Europe/Amsterdam');
    const row = summary.users.find((u: { user_id: string }) => u.user_id === ids.piet);
    // 5 × 9 h + 4 × 8 h + 4 h = 81 h, all under Welding's code: no surcharge rule here.
    expect(row.hour_codes).toEqual([{ hour_code: '100', percentage: 100, minutes: 81 * 60 }]);
  });

  it('refuses a correction of 0 minutes or of no user, and writes nothing', async () => {
    const zero = await api.http('POST', '/v1/overtime_correction', { user_id: ids.piet, date: '2026-11-30', minutes: 0 });
    expect(zero.status).toBe(422);
    expect(zero.body.errors.map((e: { field: string }) => e.field)).toEqual(['minutes']);
    const none = await api.http('POST', '/v1/overtime_correction', { date: '2026-11-30', minutes: 60 });
    expect(none.status).toBe(422);
    expect((await ok('GET', '/v1/overtime_correction')).data).toHaveLength(1);
  });

  it('asks for the hour code of time for time before a payroll file pays it', async () => {
    const res = await api.http(
      'GET',
      '/v1/time_tracking/payroll_file?format=loket&start=2026-10-01&end=2026-10-31&timezone=Europe/Amsterdam',
    );
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain('payroll_setting.time_for_time_hour_code');
  });
});

describe('closing a period freezes its closing balance', () => {
  it('keeps September at 1,020 when its schedule changes after the close, until it is reopened', async () => {
    const period = await ok('POST', '/v1/time_tracking/period', { start: '2026-09-01', end: '2026-09-30' });
    expect(period.overtime_closing).toEqual({ [ids.piet]: 1020 });
    // Sick on Friday 25 September: that week expects 1,920 of his 3,000, +1,080 instead of +600.
    const sick = await ok('POST', `/v1/resource/${ids.resource}/schedule_deviation`, {
      type: 'sick',
      start_date: '2026-09-25',
      end_date: '2026-09-25',
    });
    try {
      expect(await summaryOvertime('2026-09-01', '2026-09-30')).toEqual(balance(0, 1020));
      // The next period opens with what September paid.
      expect(await summaryOvertime('2026-10-01', '2026-10-31')).toEqual(balance(1020, -510));
      await ok('DELETE', `/v1/time_tracking/period/${period.id}`);
      // Reopened, September is computed from its records again.
      expect(await summaryOvertime('2026-09-01', '2026-09-30')).toEqual(balance(0, 1500));
      expect(await summaryOvertime('2026-10-01', '2026-10-31')).toEqual(balance(1500, -510));
    } finally {
      await ok('DELETE', `/v1/resource/${ids.resource}/schedule_deviation/${sick.id}`);
    }
    expect(await summaryOvertime('2026-10-01', '2026-10-31')).toEqual(balance(1020, -510));
  });
});

describe('corrections dated in a closed period', () => {
  it('are refused when made, moved into it, changed or deleted, and nothing is written', async () => {
    // A balance brought over on 1 September, booked before September is closed.
    const brought = await ok('POST', '/v1/overtime_correction', { user_id: ids.piet, date: '2026-09-01', minutes: 120 });
    const period = await ok('POST', '/v1/time_tracking/period', { start: '2026-09-01', end: '2026-09-30' });
    const later = await ok('POST', '/v1/overtime_correction', { user_id: ids.piet, date: '2026-10-05', minutes: -60 });
    try {
      const before = await ok('GET', '/v1/overtime_correction?limit=100');
      const made = await api.http('POST', '/v1/overtime_correction', { user_id: ids.piet, date: '2026-09-30', minutes: -60 });
      expect(made.status).toBe(409);
      expectErrorBody(made.body, 10409, 'Conflict');
      expect(made.body.errors[0].description).toMatch(/^The period 2026-09-01 – 2026-09-30 is closed for payroll; a correction/);
      expect((await api.http('PUT', `/v1/overtime_correction/${later.id}`, { date: '2026-09-29' })).status).toBe(409);
      expect((await api.http('PUT', `/v1/overtime_correction/${brought.id}`, { minutes: 60 })).status).toBe(409);
      expect((await api.http('DELETE', `/v1/overtime_correction/${brought.id}`)).status).toBe(409);
      expect(await ok('GET', '/v1/overtime_correction?limit=100')).toEqual(before);
      // Outside the period it is an ordinary correction.
      expect((await ok('PUT', `/v1/overtime_correction/${later.id}`, { date: '2026-10-06' })).date).toBe('2026-10-06');
    } finally {
      await ok('DELETE', `/v1/overtime_correction/${later.id}`);
      await ok('DELETE', `/v1/time_tracking/period/${period.id}`);
      await ok('DELETE', `/v1/overtime_correction/${brought.id}`);
    }
  });
});

describe('an edit in an open period recomputes from there on', () => {
  it('moves October and November after an extra Saturday in October, and leaves closed September as it is', async () => {
    const september = await ok('POST', '/v1/time_tracking/period', { start: '2026-09-01', end: '2026-09-30' });
    // Saturday 17 October, 3 hours: week 12–18 Oct is 2,730 of 2,400, +330 instead of +150.
    const saturday = await work('2026-10-17', 3);
    try {
      expect(await summaryOvertime('2026-10-01', '2026-10-31')).toEqual(balance(1020, -330));
      expect(await summaryOvertime('2026-11-01', '2026-11-30')).toEqual(balance(690, 240));
      // An entry in the closed September is refused, and its balance stays.
      const refused = await api.http('POST', '/v1/time_tracking', {
        user_id: ids.piet,
        activity_id: ids.welding,
        start: local('2026-09-19', '08:00'),
        end: local('2026-09-19', '12:00'),
      });
      expect(refused.status).toBe(409);
      expect(await summaryOvertime('2026-09-01', '2026-09-30')).toEqual(balance(0, 1020));
    } finally {
      await ok('DELETE', `/v1/time_tracking/${saturday.id}`);
      await ok('DELETE', `/v1/time_tracking/period/${september.id}`);
    }
    expect(await summaryOvertime('2026-11-01', '2026-11-30')).toEqual(balance(510, 240));
  });
});

describe('who books corrections', () => {
  it('lets an admin book one, and refuses a member or manager with 403, who may read them', async () => {
    const roles = await startRolesInstance('overtime-roles');
    try {
      const admin = await roles.signIn('ada@example.com', 'admin');
      const member = await roles.signIn('max@example.com', 'member');
      const manager = await roles.signIn('mo@example.com', 'manager');
      const payout = { user_id: member.id, date: '2026-11-30', minutes: -120 };
      const made = await roles.as(admin)('POST', '/v1/overtime_correction', payout);
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      for (const user of [member, manager]) {
        expectForbidden(await roles.as(user)('POST', '/v1/overtime_correction', payout), overtimeCorrectionAdminMessage);
        expectForbidden(
          await roles.as(user)('PUT', `/v1/overtime_correction/${made.body.id}`, { minutes: 120 }),
          overtimeCorrectionAdminMessage,
        );
        expectForbidden(await roles.as(user)('DELETE', `/v1/overtime_correction/${made.body.id}`), overtimeCorrectionAdminMessage);
        const read = await roles.as(user)('GET', '/v1/overtime_correction');
        expect(read.body.data.map((c: { minutes: number }) => c.minutes)).toEqual([-120]);
      }
    } finally {
      await roles.stop();
    }
  }, 60_000);
});
