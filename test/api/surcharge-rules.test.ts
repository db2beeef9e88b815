/**
 * Payroll hour codes over real HTTP (docs/API.md "Surcharge rules"): an activity's `hour_code`,
 * `/v1/surcharge_rule` (CRUD, validation that writes nothing, admin-only writes) and the split
 * of a worked week in the time report, as JSON and as CSV.
 *
 * The worked week, Europe/Amsterdam (CET, UTC+1), Monday 23 – Sunday 29 November 2026; the
 * activity Welding has hour code ORD; Thursday 26th is a company holiday for everyone.
 *
 *   rule        days         window        %     code
 *   Saturday    6            whole day     150   SAT
 *   Night       1–5          22:00–06:00   125   NIGHT
 *   Holiday     holidays     whole day     200   HOL
 *
 *   Anna (time zone Europe/Amsterdam)
 *   e1  Mon 23  08:00–16:30                 ORD 510
 *   e2  Tue 24  20:00 → Wed 25 04:00         Tue: ORD 120 (20–22), NIGHT 120 (22–24); Wed: NIGHT 240 (00–04)
 *   e3  Thu 26  09:00–13:00 (holiday)       HOL 240
 *   e4  Sat 28  10:00–14:00                 SAT 240
 *   Bert (time zone UTC): his own clock decides
 *   e5  Tue 24  21:00–23:00 UTC (22–24 CET)  UTC: ORD 60 (21–22), NIGHT 60 (22–23)
 *
 *   Totals: ORD 100 % 690 · SAT 150 % 240 · NIGHT 125 % 420 · HOL 200 % 240 (1590 minutes)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminOnlyMessage } from '../../electron/api/resources/surcharge-rule.js';
import { useSeededApi, type TestApi } from '../helpers/api.js';
import { expectFieldErrors } from '../helpers/order-data.js';
import { expectForbidden, startRolesInstance, type RolesInstance, type SignedInUser } from '../helpers/signed-in.js';
import { fixTheClock } from '../helpers/test-clock.js';
import { parseCsv } from '../helpers/time-report.js';

// The week lies before the run's fixed day, whatever the machine's date (docs/architecture.md "Tests").
fixTheClock();

let api: TestApi;
const id: Record<string, string> = {};
const period = 'start=2026-11-23&end=2026-11-29&timezone=Europe/Amsterdam';

async function post(path: string, body: unknown): Promise<any> {
  const res = await api.http('POST', path, body);
  expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBe(201);
  return res.body;
}

async function rules(): Promise<any[]> {
  const res = await api.http('GET', '/v1/surcharge_rule?limit=1000&sort=name');
  expect(res.status).toBe(200);
  return res.body.data;
}

async function invite(email: string, timezone: string): Promise<string> {
  const res = await api.http('POST', '/v1/user', { email, role: 'member', timezone });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const found = await api.http('GET', `/v1/user?filter=email:eq:'${email}'`);
  expect(found.body.count).toBe(1);
  return found.body.data[0].id;
}

useSeededApi(async (seeded) => {
  api = seeded;
  id.welding = (await post('/v1/activity', { description: 'Welding', hour_code: 'ORD' })).id;
  id.saturday = (await post('/v1/surcharge_rule', { name: 'Saturday', weekdays: [6], percentage: 150, hour_code: 'SAT' })).id;
  id.night = (
    await post('/v1/surcharge_rule', {
      name: 'Night',
      weekdays: [1, 2, 3, 4, 5],
      from_time: '22:00',
      to_time: '06:00',
      percentage: 125,
      hour_code: 'NIGHT',
    })
  ).id;
  id.holiday = (await post('/v1/surcharge_rule', { name: 'Holiday', public_holiday: true, percentage: 200, hour_code: 'HOL' })).id;
  await post('/v1/company_holiday', { description: 'Company day', start_date: '2026-11-26', end_date: '2026-11-26' });
  id.anna = await invite('anna@example.com', 'Europe/Amsterdam');
  id.bert = await invite('bert@example.com', 'UTC');
  const entry = (user: string, start: string, end: string) =>
    post('/v1/time_tracking', { user_id: id[user], activity_id: id.welding, start, end });
  id.e1 = (await entry('anna', '2026-11-23T07:00:00Z', '2026-11-23T15:30:00Z')).id;
  id.e2 = (await entry('anna', '2026-11-24T19:00:00Z', '2026-11-25T03:00:00Z')).id;
  id.e3 = (await entry('anna', '2026-11-26T08:00:00Z', '2026-11-26T12:00:00Z')).id;
  id.e4 = (await entry('anna', '2026-11-28T09:00:00Z', '2026-11-28T13:00:00Z')).id;
  id.e5 = (await entry('bert', '2026-11-24T21:00:00Z', '2026-11-24T23:00:00Z')).id;
});

describe('an activity’s hour code', () => {
  it('is stored, changed and cleared like any text field', async () => {
    const made = await post('/v1/activity', { description: 'Painting', hour_code: 'PAINT-1' });
    expect(made.hour_code).toBe('PAINT-1');
    const cleared = await api.http('PUT', `/v1/activity/${made.id as string}`, { hour_code: '' });
    expect(cleared.body.hour_code).toBeNull();
    expectFieldErrors(await api.http('PUT', `/v1/activity/${made.id as string}`, { hour_code: 'x'.repeat(51) }), ['hour_code']);
    expect((await api.http('GET', `/v1/activity/${made.id as string}`)).body.hour_code).toBeNull();
  });
});

describe('/v1/surcharge_rule', () => {
  it('creates, reads, changes and deletes a rule', async () => {
    const made = await post('/v1/surcharge_rule', {
      name: 'Evening',
      weekdays: [1, 2, 3, 4, 5],
      from_time: '18:00:00',
      to_time: '22:00',
      percentage: 112.5,
    });
    // Times as HH:MM; absent fields take their defaults.
    expect(made).toMatchObject({
      name: 'Evening',
      weekdays: [1, 2, 3, 4, 5],
      public_holiday: false,
      from_time: '18:00',
      to_time: '22:00',
      percentage: 112.5,
      hour_code: null,
    });
    expect((await api.http('GET', `/v1/surcharge_rule/${made.id as string}`)).body.name).toBe('Evening');
    const changed = await api.http('PUT', `/v1/surcharge_rule/${made.id as string}`, { to_time: '23:30', hour_code: 'EVE' });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({ from_time: '18:00', to_time: '23:30', hour_code: 'EVE', percentage: 112.5 });
    expect((await rules()).map((r) => r.name)).toEqual(['Evening', 'Holiday', 'Night', 'Saturday']);
    expect((await api.http('DELETE', `/v1/surcharge_rule/${made.id as string}`)).status).toBe(204);
    expect((await rules()).map((r) => r.name)).toEqual(['Holiday', 'Night', 'Saturday']);
  });

  it('refuses bad fields with one 422 item each and writes nothing', async () => {
    const before = JSON.stringify(await rules());
    const good = { name: 'Sunday', weekdays: [7], percentage: 175 };
    const refused = async (body: Record<string, unknown>, fields: string[], rule?: string) => {
      const res = await api.http('POST', '/v1/surcharge_rule', { ...good, ...body });
      expectFieldErrors(res, fields);
      if (rule) expect(res.body.errors[0].rule).toBe(rule);
      return res.body.errors[0];
    };
    expect(await refused({ weekdays: [0, 7] }, ['weekdays'], 'minimum')).toMatchObject({ limit: 1 });
    expect(await refused({ weekdays: [6, 8] }, ['weekdays'], 'maximum')).toMatchObject({ limit: 7 });
    await refused({ weekdays: [1.5] }, ['weekdays'], 'type');
    await refused({ weekdays: [6, 6] }, ['weekdays']);
    await refused({ weekdays: 'sat' }, ['weekdays'], 'type');
    await refused({ weekdays: [] }, ['weekdays']);
    await refused({ from_time: '25:00' }, ['from_time'], 'type');
    await refused({ to_time: '7pm' }, ['to_time'], 'type');
    await refused({ from_time: '06:00', to_time: '06:00' }, ['to_time']);
    expect(await refused({ percentage: 0 }, ['percentage'], 'minimum')).toMatchObject({ limit: 0 });
    await refused({ percentage: -50 }, ['percentage'], 'minimum');
    await refused({ percentage: 1001 }, ['percentage'], 'maximum');
    await refused({ percentage: '150' }, ['percentage'], 'type');
    await refused({ percentage: null }, ['percentage'], 'required');
    await refused({ name: '   ' }, ['name']);
    await refused({ name: undefined }, ['name'], 'required');
    // A change is checked the same way and leaves the rule as it was.
    expectFieldErrors(await api.http('PUT', `/v1/surcharge_rule/${id.night}`, { percentage: 0 }), ['percentage']);
    expectFieldErrors(await api.http('PUT', `/v1/surcharge_rule/${id.night}`, { to_time: '22:00' }), ['to_time']);
    expectFieldErrors(await api.http('PUT', `/v1/surcharge_rule/${id.night}`, { weekdays: [1, 9] }), ['weekdays']);
    expect(JSON.stringify(await rules())).toBe(before);
  });
});

describe('admin-only writes', () => {
  let roles: RolesInstance;
  let admin: SignedInUser;
  let member: SignedInUser;
  let manager: SignedInUser;

  beforeAll(async () => {
    roles = await startRolesInstance('payroll');
    admin = await roles.signIn('ada@example.com', 'admin');
    member = await roles.signIn('max@example.com', 'member');
    manager = await roles.signIn('mo@example.com', 'manager');
  }, 60_000);
  afterAll(async () => {
    await roles?.stop();
  });

  it('lets admins write rules, everyone read them, and refuses anyone else’s write with 403, writing nothing', async () => {
    const made = await roles.as(admin)('POST', '/v1/surcharge_rule', { name: 'Sunday', weekdays: [7], percentage: 200 });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const path = `/v1/surcharge_rule/${made.body.id as string}`;
    for (const user of [member, manager]) {
      expectForbidden(
        await roles.as(user)('POST', '/v1/surcharge_rule', { name: 'Mine', weekdays: [1], percentage: 300 }),
        adminOnlyMessage,
      );
      expectForbidden(await roles.as(user)('PUT', path, { percentage: 300 }), adminOnlyMessage);
      expectForbidden(await roles.as(user)('DELETE', path), adminOnlyMessage);
      const read = await roles.as(user)('GET', '/v1/surcharge_rule');
      expect(read.status).toBe(200);
      expect(read.body.data.map((r: any) => [r.name, r.percentage])).toEqual([['Sunday', 200]]);
    }
    expect((await roles.byKey('DELETE', path)).status).toBe(204);
  });
});

describe('the worked week in the time report', () => {
  it('splits each line into segments by the user’s clock, and adds them up per code and percentage', async () => {
    const res = await api.http('GET', `/v1/time_tracking/export?${period}`);
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    const byEntry = res.body.lines.map((l: any) => [
      Object.keys(id).find((k) => id[k] === l.entry_id),
      l.date,
      l.minutes,
      l.hour_code,
      l.segments.map((s: any) => `${s.date} ${s.hour_code} ${s.percentage} ${s.minutes}`),
    ]);
    expect(byEntry).toEqual([
      ['e1', '2026-11-23', 510, 'ORD', ['2026-11-23 ORD 100 510']],
      ['e2', '2026-11-24', 240, 'ORD', ['2026-11-24 ORD 100 120', '2026-11-24 NIGHT 125 120']],
      ['e2', '2026-11-25', 240, 'ORD', ['2026-11-25 NIGHT 125 240']],
      // Bert's in the report's days (22:00–24:00 CET), split by his own clock (21:00–23:00 UTC).
      ['e5', '2026-11-24', 120, 'ORD', ['2026-11-24 ORD 100 60', '2026-11-24 NIGHT 125 60']],
      ['e3', '2026-11-26', 240, 'ORD', ['2026-11-26 HOL 200 240']],
      ['e4', '2026-11-28', 240, 'ORD', ['2026-11-28 SAT 150 240']],
    ]);
    expect(res.body.hour_codes).toEqual([
      { hour_code: 'HOL', percentage: 200, minutes: 240 },
      { hour_code: 'NIGHT', percentage: 125, minutes: 420 },
      { hour_code: 'ORD', percentage: 100, minutes: 690 },
      { hour_code: 'SAT', percentage: 150, minutes: 240 },
    ]);
    expect(res.body.total_minutes).toBe(1590);
  });

  it('exports the split as CSV: per code and percentage the same minutes, and Minutes still the lines’ total', async () => {
    const response = await fetch(`${api.baseUrl}/v1/time_tracking/export?${period}&format=csv`, { headers: api.headers });
    expect(response.status).toBe(200);
    const records = parseCsv(await response.text());
    const header = records[0]!;
    const at = (name: string) => header.indexOf(name);
    expect(header.slice(-3)).toEqual(['Hour code', 'Percentage', 'Segment minutes']);
    const dated = records.slice(1).filter((r) => /^\d{4}-\d{2}-\d{2}$/.test(r[0]!));
    // Six lines and one further segment each for e2's and e5's Tuesday lines.
    expect(dated).toHaveLength(8);
    const perCode = new Map<string, number>();
    for (const r of dated) {
      const key = `${r[at('Hour code')]} ${r[at('Percentage')]}`;
      perCode.set(key, (perCode.get(key) ?? 0) + Number(r[at('Segment minutes')]));
    }
    expect(Object.fromEntries(perCode)).toEqual({ 'ORD 100': 690, 'NIGHT 125': 420, 'HOL 200': 240, 'SAT 150': 240 });
    expect(dated.reduce((sum, r) => sum + Number(r[at('Minutes')] || 0), 0)).toBe(1590);
    // Bert's Tuesday: the line's record with its first segment, then the second on a record of its own.
    const bert = dated.filter((r) => r[at('User')] === 'bert@example.com');
    expect(bert.map((r) => [r[0], r[at('Minutes')], r[at('Hour code')], r[at('Percentage')], r[at('Segment minutes')]])).toEqual([
      ['2026-11-24', '120', 'ORD', '100', '60'],
      ['2026-11-24', '', 'NIGHT', '125', '60'],
    ]);
  });

  it('follows a changed rule at once: a Saturday at 175 %', async () => {
    expect((await api.http('PUT', `/v1/surcharge_rule/${id.saturday}`, { percentage: 175 })).status).toBe(200);
    const res = await api.http('GET', `/v1/time_tracking/export?${period}`);
    expect(res.body.hour_codes).toContainEqual({ hour_code: 'SAT', percentage: 175, minutes: 240 });
    expect((await api.http('PUT', `/v1/surcharge_rule/${id.saturday}`, { percentage: 150 })).status).toBe(200);
  });
});
