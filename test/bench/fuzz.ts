/**
 * The long API fuzz run (test/helpers/api-fuzz.ts): generated requests against every route of
 * a real instance, each judged for a 500 or an error body outside docs/API.md "Errors".
 * Standalone: `npx tsx test/bench/fuzz.ts [cases] [seed]` (default 5,000 cases, a random
 * seed, printed so a run can be repeated); `npm run bench` runs it with the defaults, or with
 * FUZZ_CASES / FUZZ_SEED.
 *
 * Prints the number of cases, the answers by status and the number of 500s, and lists the
 * first findings (all of them, with their requests, go to a JSON file in the temp folder). Exits non-zero when any request got a 500, broke the contract, or the
 * server stopped answering.
 */
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeReport, runApiFuzz, topRefusals } from '../helpers/api-fuzz.js';
import { benchSize } from '../helpers/bench-size.js';

// A smoke run (bench-size.ts) sends a few hundred (every route twice or so, and one refresh of
// the records), with test/api/fuzz.test.ts's fixed seed: npm test stays repeatable, and they
// are the first of the cases judged there, so this run finds nothing that one does not.
const cases = Number(process.argv[2] ?? process.env.FUZZ_CASES ?? benchSize(5000, 500));
const seed = Number(process.argv[3] ?? process.env.FUZZ_SEED ?? benchSize(Math.floor(Math.random() * 2 ** 31), 20261126));
if (!Number.isSafeInteger(cases) || cases < 1 || !Number.isSafeInteger(seed)) {
  console.error('usage: npx tsx test/bench/fuzz.ts [cases ≥ 1] [seed]');
  process.exit(2);
}

console.log(`API fuzz: ${cases} cases, seed ${seed}`);
const report = await runApiFuzz({
  cases,
  seed,
  progress: (done, serverErrors, findings) => console.log(`  ${done} cases: ${serverErrors} × 500, ${findings} findings`),
});
console.log(describeReport(report));
console.log(`  most frequent refusals:\n${topRefusals(report)}`);
if (report.findings.length > 0) {
  // Every finding with its whole request (bodies as base64), to send again while debugging.
  const file = join(tmpdir(), `planner-fuzz-findings-${seed}.json`);
  const whole = report.findings.map((f) => ({
    ...f,
    request: { ...f.request, body: f.request.body === undefined ? undefined : Buffer.from(f.request.body).toString('base64') },
  }));
  writeFileSync(file, JSON.stringify(whole, null, 2));
  console.log(`  findings with their requests: ${file}`);
}
process.exit(report.serverErrors === 0 && report.findings.length === 0 && report.stillAnswers ? 0 : 1);
