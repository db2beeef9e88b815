/**
 * The API under generated requests (test/helpers/api-fuzz.ts): every route of the OpenAPI
 * document a real instance serves, with path parameters naming existing records, unknown
 * uuids and garbage; wrong types, missing and extra fields, odd strings (lone surrogates, NUL,
 * huge, unicode), huge numbers, bodies that are not JSON or too deep, other content types, and
 * broken query grammar (filter, sort, show, hide, with, limit, offset, cursors).
 *
 * Never a 500, the documented error body on every 4xx (docs/API.md "Errors"), and a server
 * that still reads and writes afterwards. A fixed seed keeps `npm test` repeatable; FUZZ_SEED
 * and FUZZ_CASES change it, and `npx tsx test/bench/fuzz.ts [cases] [seed]` runs longer.
 * Each 500 it found is fixed where it arose and kept in fuzz-findings.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { describeReport, runApiFuzz } from '../helpers/api-fuzz.js';

const cases = Number(process.env.FUZZ_CASES ?? 1200);
const seed = Number(process.env.FUZZ_SEED ?? 20261126);

describe('the API under generated requests', () => {
  it('never answers 500, answers every 4xx with the error body, and keeps answering', async () => {
    const report = await runApiFuzz({ cases, seed });
    console.log(describeReport(report));
    expect(report.cases).toBe(cases);
    // Every documented route got its turn (cases go round the routes).
    expect(report.routes).toBeGreaterThan(150);
    expect(cases).toBeGreaterThanOrEqual(report.routes);
    expect(report.serverErrors).toBe(0);
    expect(report.findings.map((f) => `case ${f.case}: ${f.problem}: ${f.method} ${f.url.slice(0, 120)} → ${f.answer.slice(0, 120)}`)).toEqual([]);
    expect(report.stillAnswers).toBe(true);
    // A generous cap, not a speed test: the run must stay a small part of `npm test`.
    expect(report.durationMs).toBeLessThan(110_000);
  }, 120_000);
});
