/**
 * Benchmark: board capacity over a whole year.
 *
 * Builds, through the API, a board with 5 stages and 50 resources (varied workdays, each on
 * 1–3 stages with percentages, some with deviations), then times over real HTTP on 127.0.0.1
 *
 *   GET /v1/board/{id}/capacity/{stage|resource}?date_range_start=2026-01-01
 *       &date_range_end=2026-12-31&time_frame={day|week}
 *
 * after a warm-up, 30 sequential runs each, reading the whole body. Prints p50/p95/min per case.
 * Then it adds 2,000 cards over the year (1–10 days, 1–2 activities, 0–2 resources each) and
 * times the same cases again, so the planned minutes are measured too: the first round stays
 * comparable with earlier runs of this bench, which had no cards.
 * The budget is "well under 100 ms" (p95 < 100 ms); the verdict is printed (PASS or OVER
 * BUDGET) and the script exits 0 either way. It exits non-zero only when something is broken
 * (HTTP errors, wrong shape).
 *
 *   npx tsx test/bench/capacity.ts
 */
import { performance } from 'node:perf_hooks';
import { startTestApi, type TestApi } from '../helpers/api.js';
import {
  must,
  percentile,
  picker,
  random,
  resourceTypes,
  runBench,
  seedResourcesOnBoard,
  seedStatusAndActivities,
  type Workdays,
  workdays,
} from '../helpers/bench-seed.js';
import { benchSize } from '../helpers/bench-size.js';

const stageCount = 5;
// A smoke run (bench-size.ts) asks the same year of a smaller workshop.
const resourceCount = benchSize(50, 8);
const warmup = benchSize(5, 1);
const iterations = benchSize(30, 3);
const budgetMs = 100;
const range = 'date_range_start=2026-01-01&date_range_end=2026-12-31';

const workdayPatterns: Workdays[] = [
  workdays.fullWeek,
  workdays.shortWeek,
  workdays.withSaturday,
  workdays.roundTheClock,
  workdays.tuesdayToSaturday,
];
const cardCount = benchSize(2000, 60);
const cardsPerCollection = 20;

interface Seeded {
  boardId: string;
  stageIds: string[];
  resourceIds: string[];
  deviations: number;
}

async function seed(api: TestApi): Promise<Seeded> {
  const next = random(20260101);
  const board = await must(api, 'POST', '/v1/board?with=stages', {
    name: 'Bench board',
    stages: Array.from({ length: stageCount }, (_, i) => ({ name: `Stage ${i + 1}`, priority: i, efficiency: 70 + i * 10 })),
  });
  const stageIds: string[] = board.stages.map((s: { id: string }) => s.id);
  let deviations = 0;
  const resourceIds = await seedResourcesOnBoard(api, {
    boardId: board.id,
    stageIds,
    count: resourceCount,
    next,
    body: (r) => ({
      name: `Resource ${r + 1}`,
      type: resourceTypes[r % resourceTypes.length],
      workdays: workdayPatterns[r % workdayPatterns.length],
      ...(r % 10 === 3 ? { start_date: '2026-03-01' } : {}),
      ...(r % 10 === 7 ? { end_date: '2026-10-31' } : {}),
    }),
    // Every third resource gets a holiday week and a few partial days.
    after: async (r, resourceId) => {
      if (r % 3 !== 0) return;
      const month = String(1 + Math.floor(next() * 12)).padStart(2, '0');
      await must(api, 'POST', `/v1/resource/${resourceId}/schedule_deviation`, {
        type: 'holiday',
        start_date: `2026-${month}-08`,
        end_date: `2026-${month}-14`,
      });
      deviations++;
      for (let d = 0; d < 3; d++) {
        const day = String(1 + Math.floor(next() * 28)).padStart(2, '0');
        const m = String(1 + Math.floor(next() * 12)).padStart(2, '0');
        await must(api, 'POST', `/v1/resource/${resourceId}/schedule_deviation`, {
          type: 'leave',
          start_date: `2026-${m}-${day}`,
          end_date: `2026-${m}-${day}`,
          time: 60 + d * 30,
        });
        deviations++;
      }
    },
  });
  return { boardId: board.id, stageIds, resourceIds, deviations };
}

/** Cards spread over 2026 on every stage, written through their collections. */
async function seedCards(api: TestApi, { boardId, stageIds, resourceIds }: Seeded): Promise<void> {
  const next = random(20261231);
  const pick = picker(next);
  // A card takes the board's entry status, and the bench board has none yet.
  const activities = await seedStatusAndActivities(api, boardId);
  let collectionId = '';
  for (let c = 0; c < cardCount; c++) {
    if (c % cardsPerCollection === 0)
      collectionId = (await must(api, 'POST', '/v1/collection', { name: `Bench order ${c / cardsPerCollection + 1}`, board_id: boardId }))
        .id;
    const start = Date.UTC(2026, 0, 1) + Math.floor(next() * 365) * 86_400_000;
    const end = start + Math.floor(next() * 10) * 86_400_000;
    await must(api, 'POST', `/v1/collection/${collectionId}/card`, {
      stage_id: stageIds[Math.floor(next() * stageIds.length)],
      start_date: new Date(start).toISOString().slice(0, 10),
      end_date: new Date(end).toISOString().slice(0, 10),
      activities: pick(activities, 1 + Math.floor(next() * 2)).map((id) => ({ id, time: 60 + Math.floor(next() * 900) })),
      resources: pick(resourceIds, Math.floor(next() * 3)).map((id) => ({ id })),
    });
  }
}

interface Case {
  view: 'stage' | 'resource';
  frame: 'day' | 'week';
  buckets: number;
}

const cases: Case[] = [
  { view: 'stage', frame: 'day', buckets: 365 },
  { view: 'resource', frame: 'day', buckets: 365 },
  { view: 'stage', frame: 'week', buckets: 53 },
  { view: 'resource', frame: 'week', buckets: 53 },
];

async function time(
  api: TestApi,
  path: string,
  expectBuckets: number,
  listName: string,
  listLength: number,
): Promise<{ p50: number; p95: number; min: number; bytes: number }> {
  let bytes = 0;
  const once = async () => {
    const started = performance.now();
    const response = await fetch(api.baseUrl + path, { headers: api.headers });
    const text = await response.text();
    const elapsed = performance.now() - started;
    if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}: ${text.slice(0, 300)}`);
    bytes = text.length;
    return { elapsed, text };
  };
  // Check the answer once, outside the timing.
  const { text } = await once();
  const body = JSON.parse(text);
  if (body.data?.length !== expectBuckets) throw new Error(`GET ${path}: ${body.data?.length} buckets, expected ${expectBuckets}`);
  if (body.data[0][listName]?.length !== listLength)
    throw new Error(`GET ${path}: ${body.data[0][listName]?.length} ${listName} rows, expected ${listLength}`);
  for (let i = 0; i < warmup; i++) await once();
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) samples.push((await once()).elapsed);
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 0.5), p95: percentile(samples, 0.95), min: samples[0]!, bytes };
}

/** Times every case and prints a table; true when each is within the budget. */
async function run(api: TestApi, boardId: string, label: string): Promise<boolean> {
  const rows: string[][] = [];
  let within = true;
  for (const c of cases) {
    const path = `/v1/board/${boardId}/capacity/${c.view}?${range}&time_frame=${c.frame}`;
    const result = await time(api, path, c.buckets, c.view, c.view === 'stage' ? stageCount : resourceCount);
    const verdict = result.p95 < budgetMs ? 'PASS' : 'OVER BUDGET';
    if (verdict !== 'PASS') within = false;
    rows.push([
      `capacity/${c.view}`,
      c.frame,
      String(c.buckets),
      `${(result.bytes / 1024).toFixed(0)} KiB`,
      result.p50.toFixed(1),
      result.p95.toFixed(1),
      result.min.toFixed(1),
      verdict,
    ]);
  }

  const header = [`endpoint (2026, ${label})`, 'time_frame', 'buckets', 'body', 'p50 ms', 'p95 ms', 'min ms', 'verdict'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i >= 2 && i <= 6 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of rows) console.log(line(row));
  console.log('');
  return within;
}

async function main(): Promise<void> {
  const api = await startTestApi();
  try {
    const seedStart = performance.now();
    const seeded = await seed(api);
    console.log(
      `Seeded 1 board, ${stageCount} stages, ${resourceCount} resources, ${seeded.deviations} deviations in ${(performance.now() - seedStart).toFixed(0)} ms`,
    );
    console.log(`${warmup} warm-up + ${iterations} timed runs per case, sequential, over HTTP on 127.0.0.1; budget p95 < ${budgetMs} ms\n`);
    let within = await run(api, seeded.boardId, 'whole year, no cards');

    const cardsStart = performance.now();
    await seedCards(api, seeded);
    console.log(`Added ${cardCount} cards in ${(performance.now() - cardsStart).toFixed(0)} ms\n`);
    within = (await run(api, seeded.boardId, `whole year, ${cardCount} cards`)) && within;

    console.log(
      `${within ? 'PASS' : 'OVER BUDGET'}: capacity over a year ${within ? 'is' : 'is not'} well under ${budgetMs} ms (p95) in every case`,
    );
  } finally {
    await api.close();
  }
}

runBench(main);
