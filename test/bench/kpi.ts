/**
 * Benchmark: a board's KPIs over 26 weeks (docs/API.md "KPIs").
 *
 * Builds, through the API, a board with 5 stages and 20 resources, and 5,000 cards in
 * collections of 25 spread over the 26 weeks up to today and two weeks on (1–5 days, one
 * activity, 1–2 resources each; half the collections from an order with a promise, every one
 * due). Four in five collections that ended before today are done, each written while the
 * clock stood on a day after its end, so they finish all over the half year; and 500 time
 * entries. Then, over real HTTP on 127.0.0.1, it times
 *
 *   GET /v1/kpi?board_id=…&from=<26 weeks ago>&to=<today>&time_frame=week
 *
 * reading the whole body, in two cases: every week worked out from the records (the clock set
 * back to the first week's Monday, so that none has closed and nothing is kept: the most a read
 * can cost), and as on an ordinary day, each read right after a card move, the 25 closed weeks
 * from their snapshots and this week worked out. Prints p50/p95/min of each, the first read that
 * keeps the 25 snapshots, a few figures, and the machine's load average. Budget: p95 ≤ 200 ms
 * for every week worked out; the verdict is printed and the script exits 0 either way, non-zero
 * only when something is broken (HTTP errors, no figures).
 *
 *   npx tsx test/bench/kpi.ts
 */
import { performance } from 'node:perf_hooks';
import { nowMs, startClockAt } from '../../shared/clock.js';
import { addDays, bucketStart } from '../../shared/dates.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { cardBoardSize, machineLoad, must, percentile, random, runBench, seedCardBoard } from '../helpers/bench-seed.js';
import { benchSize } from '../helpers/bench-size.js';
import { fixTheClock } from '../helpers/test-clock.js';

fixTheClock();

const { stageCount, resourceCount, cardCount, cardsPerCollection } = cardBoardSize;
const entryCount = benchSize(500, 20);
const warmup = benchSize(3, 1);
const iterations = benchSize(30, 3);
const budgetMs = 200;
const weeks = 26;
const started = nowMs();
const today = new Date(started).toISOString().slice(0, 10);
const from = addDays(bucketStart(today, 'week'), -7 * (weeks - 1));
const at = (day: string, hour: number) => startClockAt(Date.parse(`${day}T${String(hour).padStart(2, '0')}:00:00Z`));

interface PlacedCard {
  path: string;
  start_date: string;
  end_date: string;
}

async function seed(api: TestApi): Promise<{ boardId: string; placed: PlacedCard[] }> {
  const next = random(20261207);
  const board = await seedCardBoard(api, { name: 'KPI bench', next });
  const { activities } = board;
  const done = (await must(api, 'POST', `/v1/board/${board.boardId}/status`, { name: 'Done', priority: 1, exit: true })).id;
  const placed: PlacedCard[] = [];
  const cardIds: string[] = [];
  const collections = Math.ceil(cardCount / cardsPerCollection);
  for (let c = 0; c < collections; c++) {
    // Starts spread from the first week to two weeks on; stage k 4 days after stage k - 1.
    const start = addDays(from, Math.floor((c / collections) * (weeks + 2) * 7));
    const cards = Array.from({ length: cardsPerCollection }, (_, i) => board.card(i, addDays(start, (i % stageCount) * 4)));
    const end = cards.reduce((m, card) => (card.end_date > m ? card.end_date : m), '');
    const finishes = addDays(end, Math.floor(next() * 4));
    const isDone = finishes < today && next() < 0.8;
    const due = addDays(end, Math.floor(next() * 7) - 3);
    // A done collection's cards are written on the day it finished, in the Done status: that is their completed_at.
    at(isDone ? finishes : today, 15);
    const collectionId: string =
      c % 2 === 0
        ? (await must(api, 'POST', '/v1/order', { code: `SO-${c + 1}`, board_id: board.boardId, promised_date: addDays(due, -1) }))
            .collection_id
        : (await must(api, 'POST', '/v1/collection', { name: `Job ${c + 1}`, board_id: board.boardId })).id;
    await must(api, 'PUT', `/v1/collection/${collectionId}`, { due_date: due });
    const made = await Promise.all(
      cards.map((card) => must(api, 'POST', `/v1/collection/${collectionId}/card`, isDone ? { ...card, status_id: done } : card)),
    );
    for (const [i, card] of made.entries()) {
      cardIds.push(card.id);
      placed.push({ path: `/v1/collection/${collectionId}/card/${card.id as string}`, ...cards[i]! });
    }
  }
  at(today, 15);
  for (let i = 0; i < benchSize(20, 2); i++) {
    await must(api, 'POST', '/v1/collection', {
      name: `Waiting ${i + 1}`,
      board_id: board.boardId,
      activities: [{ id: activities[0], time: 480 }],
    });
  }
  for (let u = 0; u < benchSize(10, 2); u++) await api.http('POST', '/v1/user', { email: `p${u}@example.com`, role: 'member' });
  const users = (await must(api, 'GET', '/v1/user?limit=100')).data.map((u: { id: string }) => u.id);
  for (let e = 0; e < entryCount; e++) {
    const day = addDays(from, Math.floor(next() * weeks * 7));
    if (day >= today) continue;
    await must(api, 'POST', '/v1/time_tracking', {
      card_id: cardIds[Math.floor(next() * cardIds.length)],
      user_id: users[e % users.length],
      start: `${day}T08:00:00Z`,
      duration: 30 + Math.floor(next() * 240),
    });
  }
  startClockAt(started);
  return { boardId: board.boardId, placed };
}

/** CPU milliseconds this process (the server runs in it) spent on each timed read, for a figure the machine's load bends less. */
const cpuSamples: number[] = [];

async function read(api: TestApi, path: string): Promise<{ elapsed: number; body: any }> {
  const cpu = process.cpuUsage();
  const begun = performance.now();
  const response = await fetch(`${api.baseUrl}${path}`, { headers: api.headers });
  const text = await response.text();
  const elapsed = performance.now() - begun;
  const used = process.cpuUsage(cpu);
  cpuSamples.push((used.user + used.system) / 1000);
  if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}: ${text.slice(0, 300)}`);
  return { elapsed, body: JSON.parse(text) };
}

async function timed(runs: () => Promise<number>): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await runs();
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) samples.push(await runs());
  return samples.sort((a, b) => a - b);
}

async function main(): Promise<void> {
  const api = await startTestApi();
  try {
    const seedStart = performance.now();
    const { boardId, placed } = await seed(api);
    console.log(
      `Seeded 1 board, ${stageCount} stages, ${resourceCount} resources, ${cardCount} cards, ${entryCount} time entries in ${(performance.now() - seedStart).toFixed(0)} ms`,
    );
    const path = `/v1/kpi?board_id=${boardId}&from=${from}&to=${today}&time_frame=week`;

    // Every week worked out: the clock on the first Monday, so no week has closed yet.
    startClockAt(Date.parse(`${from}T06:00:00Z`));
    const open = await read(api, path);
    if (open.body.data.length !== weeks || open.body.data.some((p: any) => p.closed)) throw new Error('expected 26 open weeks');
    cpuSamples.length = 0;
    const worked = await timed(async () => (await read(api, path)).elapsed);
    const workedCpu = cpuSamples.slice(-iterations).sort((a, b) => a - b);
    startClockAt(started);

    // An ordinary day: the first read keeps the 25 closed weeks, then each read follows a card move.
    const first = await read(api, path);
    const kept = first.body.data.filter((p: any) => p.snapshot_taken_at !== null).length;
    if (kept !== weeks - 1) throw new Error(`expected ${weeks - 1} kept weeks, got ${kept}`);
    let moved = 0;
    const daily = await timed(async () => {
      const card = placed[moved++ % placed.length]!;
      const shift = moved % 2 === 0 ? 1 : -1;
      card.start_date = addDays(card.start_date, shift);
      card.end_date = addDays(card.end_date, shift);
      await must(api, 'PUT', card.path, { start_date: card.start_date, end_date: card.end_date });
      return (await read(api, path)).elapsed;
    });

    const p95 = percentile(worked, 0.95);
    console.log(`${warmup} warm-up + ${iterations} timed runs of each, over HTTP on 127.0.0.1; budget p95 ≤ ${budgetMs} ms\n`);
    console.log('| read (26 weeks) | p50 ms | p95 ms | min ms | verdict |');
    console.log('|---|---|---|---|---|');
    const row = (what: string, samples: number[], verdict: string) =>
      console.log(
        `| ${what} | ${percentile(samples, 0.5).toFixed(1)} | ${percentile(samples, 0.95).toFixed(1)} | ${samples[0]!.toFixed(1)} | ${verdict} |`,
      );
    row(`every week worked out (${cardCount} cards)`, worked, p95 <= budgetMs ? 'PASS' : 'OVER BUDGET');
    row('25 weeks kept, this week worked out, after a card move', daily, '(no budget)');
    console.log(
      `\nCPU of this process (server and client) per read, every week worked out: p50 ${percentile(workedCpu, 0.5).toFixed(1)} ms, p95 ${percentile(workedCpu, 0.95).toFixed(1)} ms`,
    );
    console.log(`first read of the day, keeping ${kept} snapshots: ${first.elapsed.toFixed(1)} ms`);
    const figures = first.body.data.map((p: any) => p.figures.board);
    const sum = (pick: (f: any) => number) => figures.reduce((s: number, f: any) => s + pick(f), 0);
    console.log(
      `over the 26 weeks: ${sum((f) => f.finished)} collections finished, on time ${sum((f) => f.on_time_delivery.numerator)}/${sum(
        (f) => f.on_time_delivery.denominator,
      )}, promises kept ${sum((f) => f.promise_reliability.numerator)}/${sum((f) => f.promise_reliability.denominator)}, booked ${sum(
        (f) => f.utilisation.booked_minutes,
      )} min`,
    );
    console.log(machineLoad());
  } finally {
    await api.close();
  }
}

runBench(main);
