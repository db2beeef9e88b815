/**
 * The API under generated requests (test/helpers/api-fuzz.ts): every route of the OpenAPI
 * document a real instance serves, with path parameters naming existing records, unknown
 * uuids and garbage; wrong types, missing and extra fields, odd strings (lone surrogates, NUL,
 * huge, unicode), huge numbers, bodies that are not JSON or too deep, other content types, and
 * broken query grammar (filter, sort, show, hide, with, limit, offset, cursors).
 *
 * Never a 500, the documented error body on every 4xx (docs/API.md "Errors"), and a server
 * that still reads and writes afterwards: sent with the API key, and by a signed-in member. A fixed seed keeps `npm test` repeatable; FUZZ_SEED
 * and FUZZ_CASES change it, and `npx tsx test/bench/fuzz.ts [cases] [seed]` runs longer.
 * Each 500 it found is fixed where it arose and kept in fuzz-findings.test.ts. In the
 * `postgres` project the instance is a team server's node, where a replica's own sync state
 * (status, settings, a run, pending changes, conflicts, overruled edits, history) is no state
 * it keeps: those routes answer 503 with the error body by design (docs/API.md "Sync"), and
 * nothing else may answer 5xx.
 */
import { describe, expect, it } from 'vitest';
import { testEngine, type TestApi } from '../helpers/api.js';
import { describeReport, runApiFuzz, type FuzzReport } from '../helpers/api-fuzz.js';
import { activeUserThroughApi, signInForCode, tokenRequest } from '../helpers/oauth-flow.js';

const cases = Number(process.env.FUZZ_CASES ?? 1200);
const seed = Number(process.env.FUZZ_SEED ?? 20261126);

/** A replica's own sync state: routes a team server answers with 503 (see the file head). */
const replicaState = /^[A-Z]+ \/v1\/sync\/(status|run|settings|pending|conflict|overruled|plan_check|history)(\/|$)/;

function expectClean(report: FuzzReport, expected: number): void {
  console.log(describeReport(report));
  expect(report.cases).toBe(expected);
  // Every documented route got its turn (cases go round the routes).
  expect(report.routes).toBeGreaterThan(150);
  expect(expected).toBeGreaterThanOrEqual(report.routes);
  const byDesign = (f: FuzzReport['findings'][number]) =>
    testEngine === 'postgres' &&
    f.status === 503 &&
    replicaState.test(f.route) &&
    // A HEAD has no body to say so.
    (f.method === 'HEAD' || f.answer.includes('keeps no replica'));
  expect(report.serverErrors).toBe(report.findings.filter(byDesign).length);
  expect(
    report.findings
      .filter((f) => !byDesign(f))
      .map((f) => `case ${f.case}: ${f.problem}: ${f.method} ${f.url.slice(0, 120)} → ${f.answer.slice(0, 120)}`),
  ).toEqual([]);
  expect(report.stillAnswers).toBe(true);
  // A generous cap, not a speed test: the run must stay a small part of `npm test`.
  expect(report.durationMs).toBeLessThan(110_000);
}

/**
 * A member signed in through the real OAuth flow: what most planners send. Invited, accepted
 * and given a client through the API, so on either engine.
 */
async function member(api: TestApi): Promise<Record<string, string>> {
  const redirectUri = 'https://app.example.com/callback';
  const email = 'member@fuzz.test';
  const password = 'pass-word-123';
  await activeUserThroughApi(api.baseUrl, api.headers, { environment: api.environment.name, email, role: 'member', password });
  const client = await api.http('POST', '/v1/oauth_client', { name: 'Fuzz app', redirect_uris: [redirectUri], confidential: true });
  expect(client.status, JSON.stringify(client.body)).toBe(201);
  const code = await signInForCode(
    api.baseUrl,
    { client_id: client.body.id, redirect_uri: redirectUri, state: 'st' },
    { environment: api.environment.name, email, password },
  );
  const token = await tokenRequest(api.baseUrl, {
    grant_type: 'authorization_code',
    code,
    client_id: client.body.id,
    client_secret: client.body.client_secret,
    redirect_uri: redirectUri,
  });
  expect(token.status, JSON.stringify(token.body)).toBe(200);
  return { authorization: `Bearer ${token.body.access_token as string}` };
}

describe('the API under generated requests', () => {
  it('never answers 500, answers every 4xx with the error body, and keeps answering', async () => {
    expectClean(await runApiFuzz({ cases, seed }), cases);
  }, 120_000);

  it('does the same for a signed-in member, whose permission checks refuse much of it', async () => {
    const memberCases = Math.ceil(cases / 2);
    expectClean(await runApiFuzz({ cases: memberCases, seed: seed + 1, caller: member }), memberCases);
  }, 120_000);
});
