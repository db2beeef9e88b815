/**
 * Benchmark: the plan check after a sync (issue 42 §2, docs/API.md "Sync", "Plan check").
 *
 * Builds, through the API, a board with 5 stages and 20 people and 5,000 cards in collections
 * of 25 around today (1–5 days, one activity, 1–2 people each, every collection due somewhere in
 * the next weeks). Then each run pulls 100 changes made on another computer, as the sync client
 * does, each card a day later or earlier with that computer's clocks: 100 cards drawn across the
 * whole board (every pull touches most days and people, and makes hundreds of new findings on a
 * board this full), and 100 cards of 4 collections (a planner who re-planned four orders). It times the check before the merge (the plan on the boards and days those cards
 * touch, as it is here) plus the check after it (the plan again, what is new kept with the
 * changes that made it); the merge itself, which is the sync's own work, is printed apart.
 *
 * Prints p50/p95/min, the findings and the machine's load average. Budget p95 ≤ 100 ms; the
 * verdict is printed and the script exits 0 either way, non-zero only when something is broken.
 *
 *   npx tsx test/bench/plan-check.ts
 */
import { performance } from 'node:perf_hooks';
import { planCheckRun } from '../../electron/api/planning/plan-check.js';
import { recordsOf } from '../../electron/store/record-store.js';
import { requestContext } from '../../electron/api/resource.js';
import { planFindingsOf } from '../../electron/store/plan-findings.js';
import { tableNamed } from '../../electron/store/tables.js';
import { mergeRecords } from '../../electron/sync/merge.js';
import type { PulledChange, PulledRecord } from '../../electron/sync/plan-changes.js';
import { syncTables } from '../../electron/sync/tables.js';
import { nowMs } from '../../shared/clock.js';
import { addDays } from '../../shared/dates.js';
import { formatHlc } from '../../shared/hlc.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { cardBoardSize, machineLoad, must, percentile, picker, random, runBench, seedCardBoard } from '../helpers/bench-seed.js';
import { benchSize } from '../helpers/bench-size.js';
import { fixTheClock } from '../helpers/test-clock.js';

fixTheClock();

const { stageCount, resourceCount, cardCount, cardsPerCollection } = cardBoardSize;
const changesPerPull = benchSize(100, 10);
const warmup = benchSize(3, 1);
const iterations = benchSize(30, 3);
const budgetMs = 100;
const today = new Date(nowMs()).toISOString().slice(0, 10);
/** The other computer whose changes are pulled. */
const otherNode = 'benchreplica01';

async function seed(api: TestApi): Promise<string[]> {
  const next = random(20261207);
  const board = await seedCardBoard(api, { name: 'Plan check bench', next, everyDayAWorkday: true, fullTimeOnEachStage: true });
  const cardIds: string[] = [];
  for (let c = 0; c < cardCount; c += cardsPerCollection) {
    const collection = await must(api, 'POST', '/v1/collection', {
      name: `SO-${c / cardsPerCollection + 1}`,
      board_id: board.boardId,
      due_date: addDays(today, 5 + Math.floor(next() * 60)),
    });
    const start = Math.floor(next() * 50) - 10;
    const cards = Array.from({ length: cardsPerCollection }, (_, i) => board.card(i, addDays(today, start + (i % stageCount) * 6)));
    const made = await Promise.all(cards.map((card) => must(api, 'POST', `/v1/collection/${collection.id}/card`, card)));
    cardIds.push(...made.map((card: { id: string }) => card.id));
  }
  return cardIds;
}

async function main(): Promise<void> {
  const api = await startTestApi();
  try {
    const seedStart = performance.now();
    const cardIds = await seed(api);
    console.log(
      `Seeded 1 board, ${stageCount} stages, ${resourceCount} people, ${cardCount} cards in ${(performance.now() - seedStart).toFixed(0)} ms`,
    );
    const store = api.dataDir.environment(api.environment.id);
    const records = recordsOf(store);
    const tables = syncTables();
    const cardTable = tableNamed('card')!;
    const ctx = requestContext({ kind: 'api-key', environment: api.environment }, records);
    const next = random(42);
    let clock = nowMs() + 1000;
    let findings = 0;

    /** One pull of `changesPerPull` cards moved by the other computer; the check's time, and the merge's. */
    const once = async (round: number, spread: boolean) => {
      const shift = round % 2 === 0 ? 1 : -1;
      const from = Math.floor((next() * (cardIds.length - changesPerPull)) / cardsPerCollection) * cardsPerCollection;
      const chosen = spread ? picker(next)(cardIds, changesPerPull) : cardIds.slice(from, from + changesPerPull);
      const entries: PulledRecord[] = chosen.map((id) => {
        const record = store.getForSync(cardTable, id)!;
        const hlc = formatHlc({ millis: clock++, counter: 0, node: otherNode });
        return {
          resource: 'card',
          id,
          record: { ...record, start_date: addDays(String(record.start_date), shift), end_date: addDays(String(record.end_date), shift) },
          clocks: { start_date: hlc, end_date: hlc, updated_at: hlc },
        };
      });
      const run = planCheckRun(ctx);
      const changes: PulledChange[] = [];
      const started = performance.now();
      await run.before(entries);
      const checkedBefore = performance.now() - started;
      const mergeStart = performance.now();
      const applied = await mergeRecords(records, tables, entries, { applied: (change) => changes.push(change) });
      const merged = performance.now() - mergeStart;
      if (applied !== entries.length || changes.length !== entries.length)
        throw new Error(`the merge applied ${applied} records and reported ${changes.length} changes of ${entries.length}`);
      const afterStart = performance.now();
      findings += await run.after(changes);
      return { check: checkedBefore + (performance.now() - afterStart), merged };
    };
    const timedRuns = async (spread: boolean) => {
      for (let i = 0; i < warmup; i++) await once(i, spread);
      const checks: number[] = [];
      const merges: number[] = [];
      const before = findings;
      for (let i = 0; i < iterations; i++) {
        const { check, merged } = await once(warmup + i, spread);
        checks.push(check);
        merges.push(merged);
      }
      return { checks: checks.sort((a, b) => a - b), merges: merges.sort((a, b) => a - b), found: findings - before };
    };
    const runs = [
      { what: `${changesPerPull} cards across the board`, ...(await timedRuns(true)) },
      { what: `${changesPerPull} cards of ${changesPerPull / cardsPerCollection} collections`, ...(await timedRuns(false)) },
    ];
    // Read from the replica's books directly: the API's connection may have idled out during the runs.
    const open = planFindingsOf(store).list({ all: false, limit: 1, offset: 0 }).count;
    if (!(findings > 0) || !(open > 0)) throw new Error('the check found nothing: moving 100 cards a day should overload some days');
    console.log(
      `${warmup} warm-up + ${iterations} timed pulls of ${changesPerPull} card changes from another computer each; budget p95 ≤ ${budgetMs} ms\n`,
    );
    console.log('| pull | plan check p50 ms | p95 ms | min ms | verdict | new findings per pull | merge itself p50 ms |');
    console.log('|---|---|---|---|---|---|---|');
    for (const { what, checks, merges, found } of runs) {
      const p95 = percentile(checks, 0.95);
      console.log(
        `| ${what} (${cardCount} cards) | ${percentile(checks, 0.5).toFixed(1)} | ${p95.toFixed(1)} | ${checks[0]!.toFixed(1)} | ${p95 <= budgetMs ? 'PASS' : 'OVER BUDGET'} | ${Math.round(found / iterations)} | ${percentile(merges, 0.5).toFixed(1)} |`,
      );
    }
    console.log(`\nfindings kept over all pulls: ${findings}; open now: ${open}`);
    console.log(machineLoad());
  } finally {
    await api.close();
  }
}

runBench(main);
