/**
 * Benchmark: undo through the API (docs/API.md "Commands and undo"), for a command of 20 cards.
 *
 * A board with one stage and 20 cards (each its own collection) on a data folder of its own;
 * over real HTTP on 127.0.0.1, each round moves the 20 cards one day later as one
 * `move_cards` command, then times `POST /v1/command/{id}/undo` of it, then undoes that undo
 * (redo, timed too) and moves on. Prints p50/p95 of undo and redo; the budget is undo p95 ≤ 30 ms
 * (the verdict is printed; the script exits non-zero only when something is broken).
 *
 *   npx tsx test/bench/undo.ts
 */
import { performance } from 'node:perf_hooks';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { must, percentile, runBench } from '../helpers/bench-seed.js';
import { benchSize } from '../helpers/bench-size.js';

const cardCount = 20;
// A smoke run (bench-size.ts) goes through the same steps a few times.
const warmup = benchSize(10, 2);
const rounds = benchSize(100, 5);
const budgetMs = 30;

async function seed(api: TestApi): Promise<{ id: string; start_date: string }[]> {
  const board = await must(api, 'POST', '/v1/board?with=stages', {
    name: 'Undo',
    stages: [{ name: 'Assembly', priority: 0 }],
    statuses: [{ name: 'To do', entry: true, color: 'blue' }],
  });
  const cards: { id: string; start_date: string }[] = [];
  for (let at = 0; at < cardCount; at++) {
    const collection = await must(api, 'POST', '/v1/collection', { name: `Part ${at + 1}`, board_id: board.id });
    const day = `2027-03-${String(1 + (at % 4)).padStart(2, '0')}`;
    cards.push(
      await must(api, 'POST', `/v1/collection/${collection.id}/card`, { stage_id: board.stages[0].id, start_date: day, end_date: day }),
    );
  }
  return cards;
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

async function main(): Promise<void> {
  const api = await startTestApi();
  try {
    const cards = await seed(api);
    const undoMs: number[] = [];
    const redoMs: number[] = [];
    for (let round = 0; round < warmup + rounds; round++) {
      // Alternately one day later and back, so the cards stay in one week.
      const shift = round % 2 === 0 ? 1 : -1;
      for (const card of cards) card.start_date = `2027-03-${String(Number(card.start_date.slice(8)) + shift).padStart(2, '0')}`;
      const move = await must(api, 'POST', '/v1/command/move_cards', {
        cards: cards.map((card) => ({ id: card.id, start_date: card.start_date, end_date: card.start_date })),
      });
      if (move.changed.length < cardCount)
        throw new Error(`the move changed ${move.changed.length} records, expected at least ${cardCount}`);
      let undoId = '';
      const undo = await timed(async () => {
        undoId = (await must(api, 'POST', `/v1/command/${move.command_id}/undo`)).command_id;
      });
      const redo = await timed(() => must(api, 'POST', `/v1/command/${undoId}/undo`));
      if (round >= warmup) {
        undoMs.push(undo);
        redoMs.push(redo);
      }
    }
    undoMs.sort((a, b) => a - b);
    redoMs.sort((a, b) => a - b);
    const p95 = percentile(undoMs, 0.95);
    console.log(`undo of a command of ${cardCount} cards, ${rounds} rounds after ${warmup} warm-up, over HTTP on 127.0.0.1`);
    console.log(
      `undo p50 ${percentile(undoMs, 0.5).toFixed(1)} ms  p95 ${p95.toFixed(1)} ms  (budget p95 ≤ ${budgetMs} ms)  ${p95 <= budgetMs ? 'PASS' : 'OVER BUDGET'}`,
    );
    console.log(`redo p50 ${percentile(redoMs, 0.5).toFixed(1)} ms  p95 ${percentile(redoMs, 0.95).toFixed(1)} ms  (no budget)`);
  } finally {
    await api.close();
  }
}

runBench(main);
