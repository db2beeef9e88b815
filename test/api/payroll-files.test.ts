/**
 * Payroll files (docs/API.md "Payroll files"): `GET /v1/time_tracking/payroll_file` for Nmbrs,
 * Loket.nl and DATEV LODAS, over real HTTP, on SQLite and (vitest's postgres project) on
 * PostgreSQL. Each file is compared byte for byte with the file written out by hand below from
 * the specification followed: columns, separator, decimal comma, encoding (UTF-8 with a byte
 * order mark, or ISO 8859-1) and CRLF line ends.
 *
 * The data set, November 2026, everyone in Europe/Amsterdam, resources working 8 hours Monday
 * to Friday; activity Welding has hour code 100, a surcharge rule pays Saturdays at 150 % under
 * 150; the payroll settings pay vacation as 300, sick as 310, leave as 320, public holidays as 330.
 *
 *   Anna Smit (payroll_ref 1001)   Mon 2 Nov 08:00–16:30 Welding          510 min  → 100   8,50
 *                                  Sat 7 Nov 09:00–13:00 Welding          240 min  → 150   4,00
 *                                  vacation Mon 9 – Tue 10 Nov, whole days 960 min → 300  16,00
 *                                  sick Thu 12 Nov, 240 minutes           240 min  → 310   4,00
 *   Zoë "Jo" Jansen (payroll_ref 20) Tue 3 Nov 09:00–11:20 Welding        140 min  → 100   2,33
 *                                  leave Wed 11 Nov, whole day: the public holiday wins (below)
 *   Everyone                       company holiday Wed 11 Nov, whole day  480 min  → 330   8,00
 *
 * Employees are listed by payroll number as numbers: 20 before 1001.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { expectErrorBody } from '../helpers/api-errors.js';
import { fixTheClock } from '../helpers/test-clock.js';

fixTheClock();

let api: TestApi;
const ids = { anna: '', zoe: '', welding: '', cleaning: '', settings: '' };
const eightHours = { '1': 8, '2': 8, '3': 8, '4': 8, '5': 8, '6': null, '7': null };
const november = 'start=2026-11-01&end=2026-11-30&timezone=Europe/Amsterdam';

async function ok(method: string, path: string, body?: unknown): Promise<any> {
  const res = await api.http(method, path, body);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body;
}

/**
 * Invites a user (the invitation answers without a body and takes no payroll fields), then an
 * admin gives them their resource and payroll number; returns their id.
 */
async function invite(body: Record<string, unknown>, payroll: Record<string, unknown> = {}): Promise<string> {
  await ok('POST', '/v1/user', body);
  const found = await ok('GET', `/v1/user?filter=email:eq:'${String(body.email)}'`);
  expect(found.data).toHaveLength(1);
  if (Object.keys(payroll).length > 0) await ok('PUT', `/v1/user/${found.data[0].id}`, payroll);
  return found.data[0].id;
}

/** A file download: status, headers and the bytes. */
async function download(query: string): Promise<{ status: number; headers: Headers; body: Buffer }> {
  const response = await fetch(`${api.baseUrl}/v1/time_tracking/payroll_file?${query}`, { headers: api.headers });
  return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
}

/** A refusal: 422 naming each field given, and the descriptions for a closer look. */
async function refused(query: string, fields: string[]): Promise<string[]> {
  const res = await download(query);
  expect(res.status, res.body.toString()).toBe(422);
  const body = JSON.parse(res.body.toString('utf8'));
  expectErrorBody(body, 10422, 'Unprocessable Content');
  expect(body.errors.map((e: { field: string }) => e.field).sort()).toEqual([...fields].sort());
  return body.errors.map((e: { description: string }) => e.description);
}

/** Local Amsterdam time in November (UTC+1) as an instant. */
const cet = (day: string, time: string) => new Date(`2026-11-${day}T${time}:00+01:00`).toISOString();

beforeAll(async () => {
  api = await startTestApi({ environment: 'payroll', key: 'payroll-key-123' });
  ids.welding = (await ok('POST', '/v1/activity', { description: 'Welding', hour_code: '100' })).id;
  ids.cleaning = (await ok('POST', '/v1/activity', { description: 'Cleaning' })).id;
  await ok('POST', '/v1/surcharge_rule', { name: 'Saturday', weekdays: [6], percentage: 150, hour_code: '150' });
  const annaResource = (await ok('POST', '/v1/resource', { name: 'Anna', workdays: eightHours })).id;
  const zoeResource = (await ok('POST', '/v1/resource', { name: 'Zoë', workdays: eightHours })).id;
  ids.anna = await invite(
    { email: 'anna@example.com', role: 'member', firstname: 'Anna', lastname: 'Smit' },
    { resource_id: annaResource, payroll_ref: '1001' },
  );
  ids.zoe = await invite(
    { email: 'zoe@example.com', role: 'member', firstname: 'Zoë "Jo"', lastname: 'Jansen' },
    { resource_id: zoeResource, payroll_ref: '20' },
  );
  // A user with neither hours nor a resource is no one's concern: no payroll_ref needed.
  await invite({ email: 'office@example.com', role: 'member', firstname: 'Olga' });
  const entry = (user: string, day: string, from: string, to: string, activity = ids.welding) =>
    ok('POST', '/v1/time_tracking', { user_id: user, activity_id: activity, start: cet(day, from), end: cet(day, to) });
  await entry(ids.anna, '02', '08:00', '16:30');
  await entry(ids.anna, '07', '09:00', '13:00');
  await entry(ids.zoe, '03', '09:00', '11:20');
  // December is another payroll month: never in November's file.
  await ok('POST', '/v1/time_tracking', {
    user_id: ids.anna,
    activity_id: ids.welding,
    start: '2026-12-01T08:00:00Z',
    end: '2026-12-01T09:00:00Z',
  });
  const deviation = (resource: string, body: Record<string, unknown>) => ok('POST', `/v1/resource/${resource}/schedule_deviation`, body);
  await deviation(annaResource, { type: 'vacation', start_date: '2026-11-09', end_date: '2026-11-10' });
  await deviation(annaResource, { type: 'sick', start_date: '2026-11-12', end_date: '2026-11-12', time: 240 });
  await deviation(zoeResource, { type: 'leave', start_date: '2026-11-11', end_date: '2026-11-11' });
  await ok('POST', '/v1/company_holiday', { description: 'Sint Maarten', start_date: '2026-11-11', end_date: '2026-11-11' });
}, 120_000);

afterAll(async () => {
  await api?.close();
});

describe('before the payroll settings are made', () => {
  it('refuses every file, naming each absence type without an hour code and nothing else', async () => {
    const said = await refused(`format=loket&${november}`, [
      'payroll_setting.holiday_hour_code',
      'payroll_setting.sick_hour_code',
      'payroll_setting.vacation_hour_code',
    ]);
    // Anna's and Zoë's holiday, 8 hours each; Zoë's leave that day is the holiday's.
    expect(said.join('\n')).toContain('16.00 hours of holiday absence');
    expect(said.join('\n')).toContain('16.00 hours of vacation absence');
    expect(said.join('\n')).toContain('4.00 hours of sick absence');
  });
});

describe('with the payroll settings', () => {
  beforeAll(async () => {
    ids.settings = (
      await ok('POST', '/v1/payroll_setting', {
        vacation_hour_code: '300',
        sick_hour_code: '310',
        leave_hour_code: '320',
        holiday_hour_code: '330',
        nmbrs_debtor_number: 'D100',
        nmbrs_company_number: 'B200',
        datev_consultant_number: '1234567',
        datev_client_number: '12345',
      })
    ).id;
  });

  it('keeps one record of payroll settings per environment', async () => {
    const res = await api.http('POST', '/v1/payroll_setting', { vacation_hour_code: '999' });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ code: 10423, field: 'scope', rule: 'unique' });
    const listed = await ok('GET', '/v1/payroll_setting');
    expect(listed.data.map((s: { vacation_hour_code: string }) => s.vacation_hour_code)).toEqual(['300']);
  });

  it('writes the Nmbrs sheet "Variabele Looncomponenten" as CSV, byte for byte', async () => {
    const res = await download(`format=nmbrs&${november}`);
    expect(res.status, res.body.toString()).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="nmbrs-hours-2026-11.csv"');
    const expected =
      '\uFEFFDebiteurnr;Bedrijfnr;Persnr;Naam;Periode;Dagen;DagenVoorLC;Uren 100;Uren 150;Uren 300;Uren 310;Uren 330\r\n' +
      ';;;;;;;100;150;300;310;330\r\n' +
      'D100;B200;20;"Zoë ""Jo"" Jansen";2026-11;;;2,33;;;;8,00\r\n' +
      'D100;B200;1001;Anna Smit;2026-11;;;8,50;4,00;16,00;4,00;8,00\r\n';
    expect(res.body.toString('hex')).toBe(Buffer.from(expected, 'utf8').toString('hex'));
    // The byte order mark and an ë as UTF-8 bytes, not as Latin-1.
    expect([...res.body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(res.body.includes(Buffer.from([0xc3, 0xab]))).toBe(true);
  });

  it('writes the Loket.nl variable data ("Import variabele gegevens") as CSV, byte for byte', async () => {
    const res = await download(`format=loket&${november}`);
    expect(res.status, res.body.toString()).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="loket-hours-2026-11.csv"');
    const expected =
      '\uFEFFWerknemernummer;Naam;Begindatum;Einddatum;Dienstverband;100;150;300;310;330\r\n' +
      '20;"Zoë ""Jo"" Jansen";01-11-2026;30-11-2026;1;2,33;;;;8,00\r\n' +
      '1001;Anna Smit;01-11-2026;30-11-2026;1;8,50;4,00;16,00;4,00;8,00\r\n';
    expect(res.body.toString('hex')).toBe(Buffer.from(expected, 'utf8').toString('hex'));
  });

  it('writes the DATEV LODAS ASCII import file in ISO 8859-1 with CRLF, byte for byte', async () => {
    const res = await download(`format=datev&${november}`);
    expect(res.status, res.body.toString()).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=iso-8859-1');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="datev-lodas-2026-11.txt"');
    const expected = [
      '[Allgemein]',
      'Ziel=LODAS',
      'Version_SST=1.0',
      'BeraterNr=1234567',
      'MandantenNr=12345',
      'Feldtrennzeichen=;',
      'Zahlenkomma=,',
      'Datumsformat=TT.MM.JJJJ',
      '',
      '[Satzbeschreibung]',
      '1;u_lod_bwd_buchung_standard;abrechnung_zeitraum#bwd;pnr#bwd;la_eigene#bwd;bs_nr#bwd;bs_wert_butab#bwd;',
      '',
      '[Bewegungsdaten]',
      '1;01.11.2026;20;100;1;2,33;',
      '1;01.11.2026;20;330;1;8,00;',
      '1;01.11.2026;1001;100;1;8,50;',
      '1;01.11.2026;1001;150;1;4,00;',
      '1;01.11.2026;1001;300;1;16,00;',
      '1;01.11.2026;1001;310;1;4,00;',
      '1;01.11.2026;1001;330;1;8,00;',
      '',
    ].join('\r\n');
    expect(res.body.toString('hex')).toBe(Buffer.from(expected, 'latin1').toString('hex'));
    // Nothing but 7-bit characters: read the same in ISO 8859-1 and in any ANSI code page.
    expect(res.body.every((byte) => byte < 0x80)).toBe(true);
  });

  it('takes the filter: one user, or only entries not yet exported', async () => {
    const res = await download(`format=loket&${november}&filter=${encodeURIComponent(`user_id:eq:${ids.zoe}`)}`);
    expect(res.status, res.body.toString()).toBe(200);
    expect(res.body.toString('utf8')).toBe(
      '\uFEFFWerknemernummer;Naam;Begindatum;Einddatum;Dienstverband;100;330\r\n' +
        '20;"Zoë ""Jo"" Jansen";01-11-2026;30-11-2026;1;2,33;8,00\r\n',
    );
  });

  it('refuses bad input with a 422 that says why', async () => {
    await refused(`format=adp&${november}`, ['format']);
    await refused(november, ['format']);
    await refused('format=nmbrs&start=2026-11-15&end=2026-12-14', ['end']);
    await refused('format=nmbrs&start=2026-11-31&end=2026-11-30', ['start']);
    await refused('format=nmbrs&start=2026-11-01&end=2026-11-30&timezone=Mars/Olympus', ['timezone']);
    await refused(`format=nmbrs&${november}&group_by=users`, ['group_by']);
  });

  it('refuses hours without an hour code, naming the user and the activity', async () => {
    const cleaning = await ok('POST', '/v1/time_tracking', {
      user_id: ids.anna,
      activity_id: ids.cleaning,
      start: cet('04', '08:00'),
      end: cet('04', '09:30'),
    });
    try {
      const said = await refused(`format=nmbrs&${november}`, ['hour_code']);
      expect(said[0]).toContain('1.50 hours of Anna Smit on activity Cleaning have no hour code');
    } finally {
      await ok('DELETE', `/v1/time_tracking/${cleaning.id}`);
    }
  });

  it('refuses a user with hours but no payroll_ref, and numbers DATEV cannot read', async () => {
    await ok('PUT', `/v1/user/${ids.zoe}`, { payroll_ref: 'Z-20' });
    try {
      // Loket and Nmbrs take any text as the number; DATEV takes 1 to 5 digits.
      expect((await download(`format=loket&${november}`)).status).toBe(200);
      const said = await refused(`format=datev&${november}`, ['payroll_ref']);
      expect(said[0]).toContain('Zoë "Jo" Jansen has Z-20');
      await ok('PUT', `/v1/user/${ids.zoe}`, { payroll_ref: null });
      const missing = await refused(`format=loket&${november}`, ['payroll_ref']);
      expect(missing[0]).toContain('Zoë "Jo" Jansen has hours in the period but no payroll_ref');
    } finally {
      await ok('PUT', `/v1/user/${ids.zoe}`, { payroll_ref: '20' });
    }
  });

  it('refuses a package whose employer numbers are not set', async () => {
    await ok('PUT', `/v1/payroll_setting/${ids.settings}`, { nmbrs_company_number: null, datev_client_number: '' });
    try {
      await refused(`format=nmbrs&${november}`, ['payroll_setting.nmbrs_company_number']);
      await refused(`format=datev&${november}`, ['payroll_setting.datev_client_number']);
    } finally {
      await ok('PUT', `/v1/payroll_setting/${ids.settings}`, { nmbrs_company_number: 'B200', datev_client_number: '12345' });
    }
  });
});
