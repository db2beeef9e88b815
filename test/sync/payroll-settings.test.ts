/**
 * The payroll settings and a user's payroll_ref are base data that syncs (docs/API.md "Payroll
 * files"): made on replica A, they write the same payroll file on replica B and on the remote
 * once both synced, and a change on B comes back to A. Real SQLite, real HTTP on 127.0.0.1: an
 * in-process remote (from PostgreSQL in the `postgres` project) and two in-process replicas.
 *
 * Data: a resource working 8 hours Monday to Friday, its user Anna (payroll_ref 1001), a
 * vacation on Monday 2 November 2026: 480 minutes under the vacation code.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok } from '../helpers/sync-cluster.js';
import type { InProcessClient, InProcessRemote } from '../helpers/sync-inprocess.js';
import { runSync, startTwoReplicas, type TwoReplicas } from '../helpers/two-replicas.js';
import { fixTheClock } from '../helpers/test-clock.js';

fixTheClock();

let replicas: TwoReplicas;
let remote: InProcessRemote;
let a: InProcessClient;
let b: InProcessClient;

beforeAll(async () => {
  replicas = await startTwoReplicas();
  ({ remote, a, b } = replicas);
});

afterAll(async () => {
  await replicas?.close();
});

/**
 * The Loket.nl file of November as text. Read as text, its byte order mark is dropped here;
 * test/api/payroll-files.test.ts checks the bytes.
 */
async function loket(node: InProcessClient | InProcessRemote): Promise<string> {
  const path = '/v1/time_tracking/payroll_file?format=loket&start=2026-11-01&end=2026-11-30&timezone=Europe/Amsterdam';
  return String(await ok(node, 'GET', path, undefined, 200)).replace(/^\uFEFF/, '');
}

describe('payroll settings made on one replica', () => {
  it('write the same payroll file on the other replica and on the remote, and a change comes back', async () => {
    const resource = await ok(
      a,
      'POST',
      '/v1/resource',
      { name: 'Anna', workdays: { '1': 8, '2': 8, '3': 8, '4': 8, '5': 8, '6': null, '7': null } },
      201,
    );
    await ok(a, 'POST', '/v1/user', { email: 'anna@example.com', role: 'member', firstname: 'Anna', lastname: 'Smit' }, 201);
    const anna = (await ok(a, 'GET', "/v1/user?filter=email:eq:'anna@example.com'", undefined, 200)).data[0];
    await ok(a, 'PUT', `/v1/user/${anna.id as string}`, { resource_id: resource.id, payroll_ref: '1001' }, 200);
    await ok(
      a,
      'POST',
      `/v1/resource/${resource.id as string}/schedule_deviation`,
      { type: 'vacation', start_date: '2026-11-02', end_date: '2026-11-02' },
      201,
    );
    const settings = await ok(a, 'POST', '/v1/payroll_setting', { vacation_hour_code: '300' }, 201);
    await runSync(a);
    await runSync(b);
    const header = 'Werknemernummer;Naam;Begindatum;Einddatum;Dienstverband;';
    for (const node of [b, remote])
      expect(await loket(node), node.name).toBe(`${header}300\r\n1001;Anna Smit;01-11-2026;30-11-2026;1;8,00\r\n`);

    await ok(b, 'PUT', `/v1/payroll_setting/${settings.id as string}`, { vacation_hour_code: '301' }, 200);
    await runSync(b);
    await runSync(a);
    expect(await loket(a)).toBe(`${header}301\r\n1001;Anna Smit;01-11-2026;30-11-2026;1;8,00\r\n`);
  });
});
