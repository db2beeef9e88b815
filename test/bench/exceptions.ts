/**
 * Benchmark: the exception inbox after a write (issue 43, "Tests and figures").
 *
 * Builds, through the API, a board with 5 stages (dependent, in priority order) and 20 resources,
 * 5,000 cards in collections of 25 around today (1–5 days, one activity, 1–2 resources each;
 * every collection due somewhere in the next weeks, so some end late, some stages start before
 * the one before them is done, some days are over capacity), 40 collections due soon and not
 * planned, and 20 running timers and 50 time entries. Then, over real HTTP on 127.0.0.1, each
 * run moves one card a day (a PUT, as the planboard does) and times
 *
 *   GET /v1/exception
 *
 * right after it, reading the whole body. Prints p50/p95/min, the items by kind and the
 * machine's load average. Budget p95 ≤ 50 ms. Then, on the same plan, "why late"
 * (docs/API.md "Why late"), `GET /v1/why_late` for every late collection of the board, each
 * run right after a card move too: budget p95 ≤ 500 ms for 100 late collections (the figure is
 * printed with the number the seed makes late). The verdicts are printed and the script exits 0
 * either way, non-zero only when something is broken (HTTP errors, an empty inbox).
 *
 *   npx tsx test/bench/exceptions.ts
 */
import { performance } from 'node:perf_hooks';
import { nowMs } from '../../shared/clock.js';
import { addDays } from '../../shared/dates.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { cardBoardSize, machineLoad, must, percentile, random, runBench, seedCardBoard } from '../helpers/bench-seed.js';
import { benchSize } from '../helpers/bench-size.js';
import { fixTheClock } from '../helpers/test-clock.js';

fixTheClock();

const { stageCount, resourceCount, cardCount, cardsPerCollection } = cardBoardSize;
const warmup = benchSize(5, 1);
const iterations = benchSize(40, 3);
const budgetMs = 50;
const whyLateBudgetMs = 500;
const today = new Date(nowMs()).toISOString().slice(0, 10);

interface PlacedCard {
  path: string;
  start_date: string;
  end_date: string;
}

async function seed(api: TestApi): Promise<{ boardId: string; cardIds: string[]; placed: PlacedCard[] }> {
  const next = random(20261207);
  // Every day a workday, so a stage's cards follow the one before them unless placed early on purpose.
  const board = await seedCardBoard(api, { name: 'Exceptions bench', next, everyDayAWorkday: true, fullTimeOnEachStage: true });
  const cardIds: string[] = [];
  const placed: PlacedCard[] = [];
  for (let c = 0; c < cardCount; c += cardsPerCollection) {
    const collection = await must(api, 'POST', '/v1/collection', {
      name: `SO-${c / cardsPerCollection + 1}`,
      board_id: board.boardId,
      due_date: addDays(today, 5 + Math.floor(next() * 60)),
    });
    const start = Math.floor(next() * 50) - 10;
    const cards = Array.from({ length: cardsPerCollection }, (_, i) => {
      // Stage k starts 6 days after stage k - 1 (a card lasts at most 5): in order, except every
      // tenth collection, whose last stage starts 4 days early.
      const stage = i % stageCount;
      const early = c % (cardsPerCollection * 10) === 0 && stage === stageCount - 1 ? 4 : 0;
      return board.card(i, addDays(today, start + stage * 6 - early));
    });
    const made = await Promise.all(cards.map((card) => must(api, 'POST', `/v1/collection/${collection.id}/card`, card)));
    cardIds.push(...made.map((card: { id: string }) => card.id));
    for (const [i, card] of made.entries()) {
      placed.push({
        path: `/v1/collection/${collection.id}/card/${card.id}`,
        start_date: cards[i]!.start_date,
        end_date: cards[i]!.end_date,
      });
    }
  }
  for (let i = 0; i < benchSize(40, 4); i++) {
    await must(api, 'POST', '/v1/collection', { name: `Waiting ${i + 1}`, board_id: board.boardId, due_date: addDays(today, i % 12) });
  }
  for (let u = 0; u < benchSize(20, 2); u++) {
    await api.http('POST', '/v1/user', { email: `p${u}@example.com`, role: 'member' });
  }
  const users = (await must(api, 'GET', '/v1/user?limit=100')).data.map((u: { id: string }) => u.id);
  for (const [u, userId] of users.entries()) {
    await must(api, 'POST', '/v1/time_tracking', {
      card_id: cardIds[u],
      user_id: userId,
      start: new Date(nowMs() - (u + 1) * 3_600_000).toISOString(),
    });
    for (let e = 0; e < 2; e++) {
      const start = nowMs() - (e + 2) * 86_400_000;
      await must(api, 'POST', '/v1/time_tracking', {
        card_id: cardIds[u + e],
        user_id: userId,
        start: new Date(start).toISOString(),
        end: new Date(start + 3_600_000).toISOString(),
        status: 'pending',
      });
    }
  }
  return { boardId: board.boardId, cardIds, placed };
}

async function main(): Promise<void> {
  const api = await startTestApi();
  try {
    const seedStart = performance.now();
    const { placed } = await seed(api);
    console.log(
      `Seeded 1 board, ${stageCount} stages, ${resourceCount} resources, ${cardCount} cards in ${(performance.now() - seedStart).toFixed(0)} ms`,
    );
    let moved = 0;
    const once = async () => {
      // A write first: one card a day later or back, as a planner drags it.
      const card = placed[moved++ % placed.length]!;
      const shift = moved % 2 === 0 ? 1 : -1;
      card.start_date = addDays(card.start_date, shift);
      card.end_date = addDays(card.end_date, shift);
      await must(api, 'PUT', card.path, { start_date: card.start_date, end_date: card.end_date });
      const started = performance.now();
      const response = await fetch(`${api.baseUrl}/v1/exception`, { headers: api.headers });
      const text = await response.text();
      const elapsed = performance.now() - started;
      if (response.status !== 200) throw new Error(`GET /v1/exception answered ${response.status}: ${text.slice(0, 300)}`);
      return { elapsed, body: JSON.parse(text) };
    };
    const first = await once();
    if (!(first.body.count > 0)) throw new Error('the inbox is empty: the seed should make exceptions of every kind');
    for (let i = 0; i < warmup; i++) await once();
    const samples: number[] = [];
    for (let i = 0; i < iterations; i++) samples.push((await once()).elapsed);
    samples.sort((a, b) => a - b);
    const p50 = percentile(samples, 0.5);
    const p95 = percentile(samples, 0.95);
    const verdict = p95 <= budgetMs ? 'PASS' : 'OVER BUDGET';
    console.log(
      `${warmup} warm-up + ${iterations} timed runs, each right after a card move, over HTTP on 127.0.0.1; budget p95 ≤ ${budgetMs} ms\n`,
    );
    console.log('| read | items | p50 ms | p95 ms | min ms | verdict |');
    console.log('|---|---|---|---|---|---|');
    console.log(
      `| GET /v1/exception (${cardCount} cards) | ${first.body.count} | ${p50.toFixed(1)} | ${p95.toFixed(1)} | ${samples[0]!.toFixed(1)} | ${verdict} |`,
    );
    console.log(`\nitems by kind: ${JSON.stringify(first.body.counts)}`);
    // Where the time goes: each kind alone, p50 of a few reads.
    const byKind: string[] = [];
    for (const kind of Object.keys(first.body.counts)) {
      const times: number[] = [];
      for (let i = 0; i < benchSize(7, 1); i++) {
        const started = performance.now();
        await must(api, 'GET', `/v1/exception?kind=${kind}`);
        times.push(performance.now() - started);
      }
      byKind.push(
        `${kind} ${percentile(
          times.sort((a, b) => a - b),
          0.5,
        ).toFixed(1)} ms`,
      );
    }
    console.log(`each kind alone (p50): ${byKind.join(', ')}`);

    // Why late, for every late collection, right after a card move as above.
    const whyTimes: number[] = [];
    let late = 0;
    for (let i = 0; i < warmup + iterations; i++) {
      const card = placed[moved++ % placed.length]!;
      const shift = moved % 2 === 0 ? 1 : -1;
      card.start_date = addDays(card.start_date, shift);
      card.end_date = addDays(card.end_date, shift);
      await must(api, 'PUT', card.path, { start_date: card.start_date, end_date: card.end_date });
      const started = performance.now();
      const body = await must(api, 'GET', '/v1/why_late');
      if (i >= warmup) whyTimes.push(performance.now() - started);
      late = body.count;
    }
    if (late === 0) throw new Error('no collection is late: the seed should make some late');
    whyTimes.sort((a, b) => a - b);
    const whyP95 = percentile(whyTimes, 0.95);
    console.log(
      `\n| read | late collections | p50 ms | p95 ms | min ms | verdict (p95 ≤ ${whyLateBudgetMs} ms) |\n|---|---|---|---|---|---|\n| GET /v1/why_late | ${late} | ${percentile(whyTimes, 0.5).toFixed(1)} | ${whyP95.toFixed(1)} | ${whyTimes[0]!.toFixed(1)} | ${whyP95 <= whyLateBudgetMs ? 'PASS' : 'OVER BUDGET'} |`,
    );
    console.log(machineLoad());
  } finally {
    await api.close();
  }
}

runBench(main);
