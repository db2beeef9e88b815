/**
 * Benchmark: the planboard's dependency arrows (renderer/views/planboard/dependency-arrows.ts)
 * on a big board. 5,000 cards of 1,000 collections over 5 stages and a year, laid out by the
 * planboard's own layout (board-layout.ts), plus 500 relations; then timed:
 *
 *   links   dependencyLinks over every card (once per layout change)
 *   arrows  arrowsBetween for the cards of one screen (once per scroll step)
 *
 * 50 runs each after a warm-up; p50/p95 printed. Budget: a frame (16 ms) for links, 2 ms for
 * arrows; the verdict is printed and the script exits 0 either way.
 *
 *   npx tsx test/bench/dependency-arrows.ts
 */
import { performance } from 'node:perf_hooks';
import { cardsInWindow, layoutBoard } from '../../renderer/views/planboard/board-layout.js';
import { dayIndex, timelineAround } from '../../renderer/views/planboard/date-geometry.js';
import { arrowsBetween, dependencyLinks, type RelationLink } from '../../renderer/views/planboard/dependency-arrows.js';
import { cardHeight, laneHeight, rowPadding } from '../../renderer/views/planboard/grid-metrics.js';
import type { PlanCard } from '../../renderer/views/planboard/plan-card.js';
import { benchSize } from '../helpers/bench-size.js';

// A smoke run (bench-size.ts) lays out a smaller board.
const collections = benchSize(1000, 100);
const stageCount = 5;
const relationCount = benchSize(500, 50);
const warmup = benchSize(5, 1);
const runs = benchSize(50, 5);

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

const next = random(18);
const stages = Array.from({ length: stageCount }, (_, at) => ({ id: `stage-${at}`, priority: at }));
const cards: PlanCard[] = [];
for (let c = 0; c < collections; c++) {
  let day = Math.floor(next() * 330);
  for (const stage of stages) {
    const length = 1 + Math.floor(next() * 4);
    const start = addDays('2026-01-05', day);
    cards.push({
      id: `card-${c}-${stage.id}`,
      collection_id: `collection-${c}`,
      stage_id: stage.id,
      start_date: start,
      end_date: addDays(start, length - 1),
    } as PlanCard);
    day += length - (next() < 0.2 ? 2 : 0);
  }
}
const relations: RelationLink[] = Array.from({ length: relationCount }, () => ({
  card_id: cards[Math.floor(next() * cards.length)]!.id,
  related_card_id: cards[Math.floor(next() * cards.length)]!.id,
  type: next() < 0.5 ? 'blocks' : 'depends',
}));

const timeline = timelineAround('2026-06-01', 'week');
const layout = layoutBoard(
  stages.map((s) => s.id),
  cards,
  timeline,
  { laneHeight, capacityHeight: 0, rowPadding },
);
const firstDay = dayIndex(timeline, '2026-06-01');
const screen = cardsInWindow(layout, { first: firstDay, last: firstDay + 60 }, 0, 100_000);
const rendered = new Set(screen.map((p) => p.card.id));

function time(run: () => unknown): { p50: number; p95: number } {
  for (let i = 0; i < warmup; i++) run();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const at = performance.now();
    run();
    times.push(performance.now() - at);
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(runs / 2)]!, p95: times[Math.floor(runs * 0.95)]! };
}

const links = dependencyLinks(layout.byId.values(), stages, relations);
const linkTimes = time(() => dependencyLinks(layout.byId.values(), stages, relations));
const arrowTimes = time(() => arrowsBetween(links, rendered, cardHeight));
const arrows = arrowsBetween(links, rendered, cardHeight);
console.log(`${cards.length} cards, ${links.length} links; ${rendered.size} cards on screen, ${arrows.length} arrows drawn`);
console.log('case    p50 ms  p95 ms  budget  verdict');
for (const [name, t, budget] of [
  ['links', linkTimes, 16],
  ['arrows', arrowTimes, 2],
] as const) {
  console.log(
    `${name.padEnd(8)}${t.p50.toFixed(2).padStart(6)}  ${t.p95.toFixed(2).padStart(6)}  ${String(budget).padStart(6)}  ${t.p95 < budget ? 'PASS' : 'OVER BUDGET'}`,
  );
}
