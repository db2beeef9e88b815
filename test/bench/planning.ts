/**
 * Benchmark: planning collections and listing their cards (issue 5).
 *
 *  (a) Plan 1,000 collections, each with 2–3 activities (so 2–3 cards), onto one board with 5
 *      stages, with `POST /v1/collection/{id}/board/{board_id}` over real HTTP against the real
 *      API on 127.0.0.1, one after the other. Every fourth collection is planned with one or two
 *      resources (so capacity comes from their schedules). Reports the total, ms per collection
 *      (mean, p50, p95, max; p50 of the first and of the last 100 successful plans, to show how it
 *      scales with the cards already on the board) and how many plans failed.
 *  (b) With exactly 5,000 cards in the environment (the cards of (a), topped up by planning more
 *      collections; about one card in five gets a label, one in four has resources), pages
 *      through all of them with `GET /v1/card?limit=1000&with=labels,resources` over real HTTP:
 *      5 requests per pass, the response read in full. Reports p50/p95 per page and per pass.
 *
 * Run: `npx tsx test/bench/planning.ts`. Exits non-zero when something is broken (a failed
 * plan, wrong data, HTTP errors); the figures are printed either way.
 */
import { performance } from 'node:perf_hooks';
import { addDays } from '../../shared/dates.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { benchSize } from '../helpers/bench-size.js';

// A smoke run (bench-size.ts) plans fewer collections and pages through fewer cards; the
// cards stay a whole number of pages, as the page check below expects.
const collections = benchSize(1000, 40);
const stageCount = 5;
const targetCards = benchSize(5000, 200);
const pageSize = benchSize(1000, 50);
const pagesPerPass = targetCards / pageSize;
const warmupPasses = benchSize(2, 1);
const passes = benchSize(10, 2);
const firstAndLast = benchSize(100, 10);

interface Board {
  id: string;
  stages: string[];
  labels: string[];
}

const problems: string[] = [];

function quantile(samples: number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}
const ms = (n: number) => n.toFixed(2);

function table(title: string, header: string[], rows: (string | number)[][]): void {
  const cells = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => r[i]!.length)));
  console.log(`\n${title}`);
  cells.forEach((r, n) => {
    console.log(r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  '));
    if (n === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  });
}

async function must(api: TestApi, method: string, path: string, body?: unknown, status = 200): Promise<any> {
  const res = await api.http(method, path, body);
  if (res.status !== status) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

async function createBoard(api: TestApi, activities: string[], name: string): Promise<Board> {
  const board = await must(
    api,
    'POST',
    '/v1/board?with=stages,labels',
    {
      name,
      statuses: [
        { name: 'To do', priority: 0, entry: true },
        { name: 'Done', priority: 1, exit: true },
      ],
      labels: ['Rush', 'Export', 'Warranty'].map((label, priority) => ({ name: label, priority })),
      stages: activities.map((id, priority) => ({
        name: `Stage ${priority + 1}`,
        priority,
        delay_day: priority % 2,
        activities: [{ id, priority: 0 }],
      })),
    },
    201,
  );
  return {
    id: board.id,
    stages: [...board.stages].sort((a: any, b: any) => a.priority - b.priority).map((s: any) => s.id),
    labels: board.labels.map((l: any) => l.id),
  };
}

async function createResources(api: TestApi, board: Board, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const resource = await must(
      api,
      'POST',
      '/v1/resource',
      {
        name: `Worker ${i + 1}`,
        type: i % 2 === 0 ? 'employee' : 'machine',
        boards: [
          { id: board.id, active: true, stages: board.stages.map((id, s) => ({ id, percentage: 50 + ((i + s) % 6) * 10, active: true })) },
        ],
      },
      201,
    );
    ids.push(resource.id);
  }
  return ids;
}

async function newCollection(api: TestApi, board: Board, activities: string[], index: number, picks: number[]): Promise<string> {
  const collection = await must(
    api,
    'POST',
    '/v1/collection',
    {
      name: `Order ${10000 + index}`,
      board_id: board.id,
      due_date: addDays('2026-03-02', 60 + (index % 90)),
      activities: picks.map((p, n) => ({ id: activities[p]!, time: 120 + ((index * 37 + n * 113) % 1800) })),
    },
    201,
  );
  return collection.id;
}

/** 2 or 3 distinct activities for collection `i`. */
function picksFor(i: number): number[] {
  const count = i % 3 === 0 ? 3 : 2;
  const first = i % stageCount;
  return Array.from({ length: count }, (_, n) => (first + n * 2) % stageCount).filter((v, k, all) => all.indexOf(v) === k);
}

async function planBody(i: number, resources: string[]): Promise<Record<string, unknown>> {
  return {
    start: addDays('2026-03-02', i % 60),
    ...(i % 4 === 0 ? { resources: resources.slice(i % resources.length, (i % resources.length) + 1 + (i % 8 === 0 ? 1 : 0)) } : {}),
  };
}

async function main(): Promise<void> {
  const api = await startTestApi();
  try {
    const activities: string[] = [];
    for (let a = 0; a < stageCount; a++) {
      activities.push(
        (await must(api, 'POST', '/v1/activity', { description: `Activity ${a + 1}`, resource_type: a % 2 ? 'machine' : 'employee' }, 201))
          .id,
      );
    }
    const board = await createBoard(api, activities, 'Bench board');
    const resources = await createResources(api, board, 6);

    // ---------------------------------------------------------------- (a) plan 1,000 collections
    const ids: string[] = [];
    for (let i = 0; i < collections; i++) ids.push(await newCollection(api, board, activities, i, picksFor(i)));
    const latencies: number[] = [];
    /** Latencies of the plans that succeeded, in order. */
    const planned: number[] = [];
    const failures: { index: number; status: number; body: string }[] = [];
    let cardsMade = 0;
    const started = performance.now();
    for (let i = 0; i < collections; i++) {
      const body = await planBody(i, resources);
      const t0 = performance.now();
      const res = await api.http('POST', `/v1/collection/${ids[i]}/board/${board.id}`, body);
      latencies.push(performance.now() - t0);
      if (res.status === 200) {
        cardsMade += res.body.cards.length;
        planned.push(latencies[latencies.length - 1]!);
      } else failures.push({ index: i + 1, status: res.status, body: JSON.stringify(res.body).slice(0, 160) });
    }
    const totalSeconds = (performance.now() - started) / 1000;
    const mean = latencies.reduce((s, x) => s + x, 0) / latencies.length;
    table(
      `(a) plan ${collections.toLocaleString('en')} collections (2–3 activities each) onto a board with ${stageCount} stages, over HTTP`,
      ['figure', 'value'],
      [
        ['collections', collections],
        ['planned (200)', collections - failures.length],
        ['failed', failures.length],
        ['cards made', cardsMade],
        ['total s', totalSeconds.toFixed(2)],
        ['ms per collection (mean)', ms(mean)],
        ['p50 ms', ms(quantile(latencies, 0.5))],
        ['p95 ms', ms(quantile(latencies, 0.95))],
        ['max ms', ms(Math.max(...latencies))],
        [`p50 ms, first ${firstAndLast} planned`, ms(quantile(planned.slice(0, firstAndLast), 0.5))],
        [`p50 ms, last ${firstAndLast} planned`, ms(quantile(planned.slice(-firstAndLast), 0.5))],
      ],
    );
    if (failures.length > 0) {
      const byStatus = new Map<number, number>();
      for (const f of failures) byStatus.set(f.status, (byStatus.get(f.status) ?? 0) + 1);
      console.log(
        `\nFAILED plans: ${[...byStatus].map(([s, n]) => `${n} × HTTP ${s}`).join(', ')}; first at collection #${failures[0]!.index}: ${failures[0]!.body}`,
      );
      const perStage = await Promise.all(
        board.stages.map(async (id) => (await must(api, 'GET', `/v1/card?filter=stage_id:eq:${id}&limit=0`)).count as number),
      );
      console.log(`cards per stage when it failed: ${perStage.join(', ')}`);
      problems.push(
        `${failures.length} of ${collections} plans failed (first: collection #${failures[0]!.index}, HTTP ${failures[0]!.status})`,
      );
    }

    // ---------------------------------------------------------------- top up to exactly 5,000 cards
    let count: number = (await must(api, 'GET', '/v1/card?limit=0')).count;
    let topUpBoard = board;
    let topUpBoards = 0;
    let index = collections;
    while (count < targetCards) {
      const need = Math.min(stageCount, targetCards - count);
      const picks = Array.from({ length: need }, (_, n) => n);
      const id = await newCollection(api, topUpBoard, activities, index, picks);
      let res = await api.http('POST', `/v1/collection/${id}/board/${topUpBoard.id}`, await planBody(index, resources));
      if (res.status !== 200) {
        // The board cannot take more (see the failures above): continue on a fresh board.
        topUpBoard = await createBoard(api, activities, `Bench board ${++topUpBoards + 1}`);
        res = await api.http('POST', `/v1/collection/${id}/board/${topUpBoard.id}`, {});
        if (res.status !== 200) throw new Error(`top-up plan failed: ${res.status} ${JSON.stringify(res.body)}`);
      }
      count += res.body.cards.length;
      index++;
    }
    if (topUpBoards > 0) console.log(`\n(top-up needed ${topUpBoards} extra board(s) of 5 stages to reach ${targetCards} cards)`);

    // Labels on about one card in five.
    const all: any[] = [];
    for (let offset = 0; offset < targetCards; offset += pageSize) {
      all.push(...(await must(api, 'GET', `/v1/card?limit=${pageSize}&offset=${offset}&with=resources`)).data);
    }
    const labelsOf = new Map<string, string[]>();
    const boardLabels = new Map<string, string[]>([[board.id, board.labels]]);
    for (let i = 0; i < all.length; i += 5) {
      const card = all[i]!;
      if (!boardLabels.has(card.board_id)) {
        boardLabels.set(
          card.board_id,
          (await must(api, 'GET', `/v1/board/${card.board_id}?with=labels`)).labels.map((l: any) => l.id),
        );
      }
      const labels = boardLabels.get(card.board_id)!.slice(0, 1 + (i % 2));
      await must(api, 'PUT', `/v1/collection/${card.collection_id}/card/${card.id}`, { labels: labels.map((id) => ({ id })) });
      labelsOf.set(card.id, labels);
    }
    const withResources = all.filter((c) => c.resources.length > 0).length;

    // ---------------------------------------------------------------- (b) page through 5,000 cards
    const total = (await must(api, 'GET', '/v1/card?limit=0')).count;
    if (total !== targetCards) throw new Error(`expected ${targetCards} cards, found ${total}`);
    const pageTimes: number[] = [];
    const passTimes: number[] = [];
    let bytes = 0;
    for (let pass = 0; pass < warmupPasses + passes; pass++) {
      const seen = new Set<string>();
      const passStart = performance.now();
      let passBytes = 0;
      const pages: string[] = [];
      for (let offset = 0; offset < targetCards; offset += pageSize) {
        const t0 = performance.now();
        const response = await fetch(`${api.baseUrl}/v1/card?limit=${pageSize}&offset=${offset}&with=labels,resources`, {
          headers: api.headers,
        });
        const text = await response.text();
        const elapsed = performance.now() - t0;
        if (response.status !== 200) throw new Error(`GET /v1/card page ${offset}: ${response.status} ${text.slice(0, 200)}`);
        if (pass >= warmupPasses) pageTimes.push(elapsed);
        passBytes += text.length;
        pages.push(text);
      }
      if (pass >= warmupPasses) passTimes.push(performance.now() - passStart);
      bytes = passBytes;
      // Check the data (outside the timing): every card once, with its labels and resources.
      let labelled = 0;
      let resourced = 0;
      for (const text of pages) {
        const body = JSON.parse(text);
        if (body.count !== targetCards || body.data.length !== pageSize)
          throw new Error(`page has ${body.data.length} of count ${body.count}`);
        for (const card of body.data) {
          seen.add(card.id);
          if (!Array.isArray(card.labels) || !Array.isArray(card.resources)) throw new Error('labels/resources not embedded');
          const expected = labelsOf.get(card.id) ?? [];
          if (
            card.labels
              .map((l: any) => l.id)
              .sort()
              .join() !== [...expected].sort().join()
          )
            throw new Error(`card ${card.id} has the wrong labels`);
          if (card.labels.length > 0) labelled++;
          if (card.resources.length > 0) resourced++;
        }
      }
      if (seen.size !== targetCards) throw new Error(`a pass saw ${seen.size} distinct cards`);
      if (labelled !== labelsOf.size || resourced !== withResources)
        throw new Error(`labelled ${labelled}/${labelsOf.size}, with resources ${resourced}/${withResources}`);
    }
    table(
      `(b) GET /v1/card?limit=${pageSize}&with=labels,resources over HTTP, ${targetCards.toLocaleString('en')} cards (${labelsOf.size} with labels, ${withResources} with resources)`,
      ['figure', 'p50 ms', 'p95 ms', 'max ms'],
      [
        [
          `per page (${pageTimes.length} requests)`,
          ms(quantile(pageTimes, 0.5)),
          ms(quantile(pageTimes, 0.95)),
          ms(Math.max(...pageTimes)),
        ],
        [
          `all ${pagesPerPass} pages (${passTimes.length} passes)`,
          ms(quantile(passTimes, 0.5)),
          ms(quantile(passTimes, 0.95)),
          ms(Math.max(...passTimes)),
        ],
      ],
    );
    console.log(
      `response size: ${(bytes / 1024 / 1024).toFixed(2)} MiB for all ${pagesPerPass} pages (${(bytes / pagesPerPass / 1024).toFixed(0)} KiB per page)`,
    );
  } finally {
    await api.close();
  }
  if (problems.length > 0) {
    console.log(`\nBROKEN: ${problems.join('; ')}`);
    process.exit(1);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
