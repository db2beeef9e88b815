/**
 * Benchmark: finite-capacity planning and promise dates (docs/API.md "Finite-capacity planning").
 *
 * Builds, through the API, a board with 5 stages (stage i allows activity i) and 50 resources
 * (varied workdays, each on 1–3 stages, every third with a holiday week), and 5,000 cards over
 * 2027 (1–10 days, 1–2 activities, 0–2 resources each). Then, over real HTTP on 127.0.0.1:
 *
 *   - finite planning of one collection (5 activities, one card per stage) from 2027-01-04,
 *     without and with two assigned resources: after a warm-up, 30 sequential plans each
 *     (each replaces the previous plan's cards); budget p95 ≤ 50 ms;
 *   - promise dates for 200 backlog collections (1–3 activities each) in one call
 *     (`POST /v1/board/{id}/promise_dates`); 5 calls after a warm-up; budget ≤ 1 s per call.
 *   - material (docs/API.md "Material"): 20 sales orders on the board, 30 % of them with a row
 *     supplied by a purchase order promised in January–March 2027; each planned finite in
 *     turn, 30 plans after a warm-up; budget p95 ≤ 50 ms. Then promise dates for 200 sales
 *     orders that all wait for a purchase row, in one call, 5 calls; budget ≤ 1 s per call.
 *   - skills (docs/API.md "Skills and crews"): the activities of stages 1–3 each need a skill
 *     that every other resource has, stage 1's with a crew of 2; a collection of those three
 *     activities planned finite without resources, 30 plans after a warm-up; budget p95 ≤ 50 ms.
 *
 * Prints the figures and PASS or OVER BUDGET, and exits 0 either way; non-zero only when
 * something is broken (HTTP errors, wrong shape).
 *
 *   npx tsx test/bench/finite-planning.ts
 */
import { performance } from 'node:perf_hooks';
import { startTestApi } from '../helpers/api.js';
import { must, percentile, picker, random, seedResourcesOnBoard, workdays, type Workdays } from '../helpers/bench-seed.js';
import { benchSize } from '../helpers/bench-size.js';

const stageCount = 5;
// A smoke run (bench-size.ts) plans on a smaller board, with a shorter backlog.
const resourceCount = benchSize(50, 8);
const cardCount = benchSize(5000, 100);
const cardsPerCollection = 25;
const backlogCount = benchSize(200, 10);
const warmup = benchSize(5, 1);
const iterations = benchSize(30, 3);
const promiseCalls = benchSize(5, 2);
const planBudgetMs = 50;
const promiseBudgetMs = 1000;
const materialOrders = benchSize(20, 4);
/** Of every ten sales orders in the material plan case, this many wait for a purchase row. */
const materialTenths = 3;
const start = '2027-01-04';

const workdayPatterns: Workdays[] = [
  workdays.fullWeek,
  workdays.shortWeek,
  workdays.withSaturday,
  workdays.twoShifts,
  workdays.tuesdayToSaturday,
];

async function main(): Promise<void> {
  const api = await startTestApi();
  try {
    const next = random(20270104);
    const activities: string[] = [];
    for (let i = 0; i < stageCount; i++)
      activities.push((await must(api, 'POST', '/v1/activity', { description: `Step ${i + 1}`, resource_type: 'employee' })).id);
    const board = await must(api, 'POST', '/v1/board?with=stages', {
      name: 'Finite bench',
      statuses: [{ name: 'Ready', priority: 0, entry: true, exit: false }],
      stages: activities.map((id, i) => ({
        name: `Stage ${i + 1}`,
        priority: i,
        efficiency: 80 + i * 5,
        activities: [{ id, priority: 0 }],
      })),
    });
    const stageIds: string[] = board.stages.map((s: { id: string }) => s.id);
    const resourceIds = await seedResourcesOnBoard(api, {
      boardId: board.id,
      stageIds,
      count: resourceCount,
      next,
      body: (r) => ({ name: `Resource ${r + 1}`, workdays: workdayPatterns[r % workdayPatterns.length] }),
      after: async (r, resourceId) => {
        if (r % 3 !== 0) return;
        const month = String(1 + Math.floor(next() * 12)).padStart(2, '0');
        await must(api, 'POST', `/v1/resource/${resourceId}/schedule_deviation`, {
          type: 'holiday',
          start_date: `2027-${month}-08`,
          end_date: `2027-${month}-14`,
        });
      },
    });
    const pick = picker(next);
    const seeding = performance.now();
    // 25 cards to a collection, written inline with it (docs/API.md "Writing related records inline").
    for (let c = 0; c < cardCount / cardsPerCollection; c++) {
      const cards = Array.from({ length: cardsPerCollection }, () => {
        const from = Date.UTC(2027, 0, 1) + Math.floor(next() * 365) * 86_400_000;
        const to = from + Math.floor(next() * 10) * 86_400_000;
        const stage = Math.floor(next() * stageCount);
        return {
          stage_id: stageIds[stage],
          start_date: new Date(from).toISOString().slice(0, 10),
          end_date: new Date(to).toISOString().slice(0, 10),
          activities: [{ id: activities[stage], time: 60 + Math.floor(next() * 900) }],
          resources: pick(resourceIds, Math.floor(next() * 3)).map((id) => ({ id })),
        };
      });
      await must(api, 'POST', '/v1/collection', { name: `Planned ${c}`, board_id: board.id, cards });
    }
    const cardsMade = (await must(api, 'GET', `/v1/card?filter=board_id:eq:${board.id}&limit=0`)).count;
    if (cardsMade !== cardCount) throw new Error(`seeded ${cardsMade} cards, expected ${cardCount}`);
    console.log(`seeded ${cardCount} cards in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);

    const subject = (
      await must(api, 'POST', '/v1/collection', {
        name: 'Subject',
        board_id: board.id,
        activities: activities.map((id, i) => ({ id, time: 600 + i * 300 })),
      })
    ).id;
    const rows: string[] = [];
    let within = true;
    for (const [label, resources, capacity] of [
      ['infinite plan (to compare)', [], 'infinite'],
      ['finite plan, no resources', [], 'finite'],
      ['finite plan, 2 resources', resourceIds.slice(0, 2), 'finite'],
    ] as const) {
      const once = async () => {
        const started = performance.now();
        const answer = await must(api, 'POST', `/v1/collection/${subject}/board/${board.id}`, { start, capacity, resources });
        const elapsed = performance.now() - started;
        if (answer.cards.length < stageCount) throw new Error(`${label}: ${answer.cards.length} cards, expected at least ${stageCount}`);
        return elapsed;
      };
      for (let i = 0; i < warmup; i++) await once();
      const samples: number[] = [];
      for (let i = 0; i < iterations; i++) samples.push(await once());
      samples.sort((a, b) => a - b);
      const p95 = percentile(samples, 0.95);
      if (capacity === 'finite' && p95 > planBudgetMs) within = false;
      rows.push(
        `${label.padEnd(32)} p50 ${percentile(samples, 0.5).toFixed(1)} ms  p95 ${p95.toFixed(1)} ms  min ${samples[0]!.toFixed(1)} ms  ${capacity === 'infinite' ? '(no budget: the same call without capacity, to compare)' : p95 <= planBudgetMs ? `PASS (p95 ≤ ${planBudgetMs} ms)` : `OVER BUDGET (p95 ≤ ${planBudgetMs} ms)`}`,
      );
    }

    const backlog: string[] = [];
    for (let c = 0; c < backlogCount; c++) {
      const count = 1 + Math.floor(next() * 3);
      const picked = [...new Set(Array.from({ length: count }, () => Math.floor(next() * stageCount)))].sort();
      backlog.push(
        (
          await must(api, 'POST', '/v1/collection', {
            name: `Backlog ${c}`,
            board_id: board.id,
            activities: picked.map((i) => ({ id: activities[i], time: 120 + Math.floor(next() * 1800) })),
          })
        ).id,
      );
    }
    const promise = async () => {
      const started = performance.now();
      const answer = await must(api, 'POST', `/v1/board/${board.id}/promise_dates`, { collection_ids: backlog, start });
      const elapsed = performance.now() - started;
      if (answer.data.length !== backlogCount || answer.data.some((d: any) => !d.end))
        throw new Error(`promise_dates: ${JSON.stringify(answer.data.slice(0, 3))}`);
      return elapsed;
    };
    await promise();
    const calls: number[] = [];
    for (let i = 0; i < promiseCalls; i++) calls.push(await promise());
    const worst = Math.max(...calls);
    if (worst > promiseBudgetMs) within = false;
    rows.push(
      `${`promise dates, ${backlogCount} collections`.padEnd(32)} ${calls.map((c) => `${c.toFixed(0)} ms`).join(', ')}  worst ${worst.toFixed(0)} ms  ${worst <= promiseBudgetMs ? 'PASS' : 'OVER BUDGET'} (≤ ${promiseBudgetMs} ms)`,
    );
    // Material: collections made by sales orders, some of whose first rows a purchase row supplies.
    let orderNumber = 0;
    const salesOrder = async (withMaterial: boolean): Promise<string> => {
      const n = ++orderNumber;
      const count = 1 + Math.floor(next() * 3);
      const picked = [...new Set(Array.from({ length: count }, () => Math.floor(next() * stageCount)))].sort();
      const order = await must(api, 'POST', '/v1/order?with=order_rows', {
        code: `SO-${n}`,
        type: 'Sales',
        board_id: board.id,
        order_rows: picked.map((i) => ({ activity_id: activities[i], unit: 'minutes', quantity: 120 + Math.floor(next() * 1800) })),
      });
      if (withMaterial) {
        const promised = `2027-0${1 + Math.floor(next() * 3)}-${String(10 + Math.floor(next() * 18))}`;
        await must(api, 'POST', '/v1/order', {
          code: `PO-${n}`,
          type: 'Purchase',
          promised_date: promised,
          order_rows: [{ code: 'steel', supplies_order_rows: [{ id: order.order_rows[0].id }] }],
        });
      }
      return order.collection_id;
    };
    const ordered: string[] = [];
    for (let c = 0; c < materialOrders; c++) ordered.push(await salesOrder(c % 10 < materialTenths));
    const planOrder = async (i: number) => {
      const started = performance.now();
      const answer = await must(api, 'POST', `/v1/collection/${ordered[i % ordered.length]}/board/${board.id}`, {
        start,
        capacity: 'finite',
      });
      const elapsed = performance.now() - started;
      if (answer.cards.length < 1) throw new Error(`material plan: no cards`);
      return elapsed;
    };
    for (let i = 0; i < warmup; i++) await planOrder(i);
    const materialSamples: number[] = [];
    for (let i = 0; i < iterations; i++) materialSamples.push(await planOrder(i));
    materialSamples.sort((a, b) => a - b);
    const materialP95 = percentile(materialSamples, 0.95);
    if (materialP95 > planBudgetMs) within = false;
    rows.push(
      `${`finite plan, material on ${materialTenths * 10} %`.padEnd(32)} p50 ${percentile(materialSamples, 0.5).toFixed(1)} ms  p95 ${materialP95.toFixed(1)} ms  min ${materialSamples[0]!.toFixed(1)} ms  ${materialP95 <= planBudgetMs ? 'PASS' : 'OVER BUDGET'} (p95 ≤ ${planBudgetMs} ms)`,
    );
    const waiting: string[] = [];
    for (let c = 0; c < backlogCount; c++) waiting.push(await salesOrder(true));
    const promiseWaiting = async () => {
      const started = performance.now();
      const answer = await must(api, 'POST', `/v1/board/${board.id}/promise_dates`, { collection_ids: waiting, start });
      const elapsed = performance.now() - started;
      if (answer.data.length !== backlogCount || answer.data.some((d: any) => !d.end))
        throw new Error(`promise_dates with material: ${JSON.stringify(answer.data.slice(0, 3))}`);
      return elapsed;
    };
    await promiseWaiting();
    const waitingCalls: number[] = [];
    for (let i = 0; i < promiseCalls; i++) waitingCalls.push(await promiseWaiting());
    const waitingWorst = Math.max(...waitingCalls);
    if (waitingWorst > promiseBudgetMs) within = false;
    rows.push(
      `${`promise dates, ${backlogCount} w/ material`.padEnd(32)} ${waitingCalls.map((c) => `${c.toFixed(0)} ms`).join(', ')}  worst ${waitingWorst.toFixed(0)} ms  ${waitingWorst <= promiseBudgetMs ? 'PASS' : 'OVER BUDGET'} (≤ ${promiseBudgetMs} ms)`,
    );
    // Skills on 3 stages: every other resource qualified for each; stage 1's activity a crew of 2
    // where it has two qualified people (a smoke run's small board may not).
    const skilledStages = 3;
    const qualified = new Array<number>(skilledStages).fill(0);
    for (const [r, id] of resourceIds.entries()) {
      if (r % 2 !== 0) continue;
      const resource = await must(api, 'GET', `/v1/resource/${id}`);
      const on = new Set<string>(resource.boards.flatMap((b: { stages: { id: string }[] }) => b.stages.map((st) => st.id)));
      stageIds.slice(0, skilledStages).forEach((stageId, i) => {
        if (on.has(stageId)) qualified[i]!++;
      });
      await must(api, 'PUT', `/v1/resource/${id}`, { skills: Array.from({ length: skilledStages }, (_, i) => `skill-${i + 1}`) });
    }
    for (let i = 0; i < skilledStages; i++) {
      await must(api, 'PUT', `/v1/activity/${activities[i]}`, { skill: `skill-${i + 1}`, crew: i === 0 && qualified[0]! >= 2 ? 2 : 1 });
    }
    const skilled = (
      await must(api, 'POST', '/v1/collection', {
        name: 'Skilled',
        board_id: board.id,
        activities: activities.slice(0, skilledStages).map((id, i) => ({ id, time: 600 + i * 300 })),
      })
    ).id;
    const planSkilled = async () => {
      const started = performance.now();
      const answer = await must(api, 'POST', `/v1/collection/${skilled}/board/${board.id}`, { start, capacity: 'finite' });
      const elapsed = performance.now() - started;
      if (answer.cards.length < skilledStages) throw new Error(`skills plan: ${answer.cards.length} cards, expected ${skilledStages}`);
      return elapsed;
    };
    for (let i = 0; i < warmup; i++) await planSkilled();
    const skillSamples: number[] = [];
    for (let i = 0; i < iterations; i++) skillSamples.push(await planSkilled());
    skillSamples.sort((a, b) => a - b);
    const skillP95 = percentile(skillSamples, 0.95);
    if (skillP95 > planBudgetMs) within = false;
    rows.push(
      `${`finite plan, skills on ${skilledStages} stages`.padEnd(32)} p50 ${percentile(skillSamples, 0.5).toFixed(1)} ms  p95 ${skillP95.toFixed(1)} ms  min ${skillSamples[0]!.toFixed(1)} ms  ${skillP95 <= planBudgetMs ? 'PASS' : 'OVER BUDGET'} (p95 ≤ ${planBudgetMs} ms)`,
    );
    console.log(`\nboard: ${stageCount} stages, ${resourceCount} resources, ${cardCount} planned cards`);
    for (const row of rows) console.log(row);
    console.log(within ? '\nall within budget' : '\nsome OVER BUDGET');
  } finally {
    await api.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
