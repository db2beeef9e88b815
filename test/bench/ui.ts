/**
 * Benchmark: the planboard in Chromium on a full board (issue 9's budgets, and issue 39's for scrolling).
 *
 * A data folder is filled first through the local instance itself (`openLocalInstance`, the
 * same API the app runs, without HTTP): one board with 5 stages, resources on every stage,
 * 1,667 collections of 3 activities planned over about a year (5,001 cards) and 500 more left
 * in the backlog. The folder is closed, the app is started on it in browser-host mode
 * (`startApp`), and Playwright drives Debian's Chromium with the flags of
 * playwright.config.ts.
 *
 * Measured, inside the page:
 *  - first render: from the moment the cards were in hand (the `planboard:cards-loaded` User
 *    Timing marks the data hook sets) to the first frame that shows them
 *    (`planboard:cards-painted`); and a remount from cached data (Projects → Planboard, click to
 *    painted cards);
 *  - dragging a card across the board for 120 frames (pointer events dispatched once per
 *    animation frame) and scrolling 3 months in 120 frames: main-thread time per frame, from a
 *    Chromium performance trace (every task on the renderer's main thread, summed per frame
 *    between `BeginMainThreadFrame` events). The interval between animation frames and the
 *    frames that took longer than one vsync are shown beside it;
 *  - a drag commit: from the pointer-up to the frame showing the card at its new place
 *    (before the API answers: the move is optimistic).
 *
 * Run: `npx tsx test/bench/ui.ts` (builds the renderer first; `--no-build` skips that). Prints
 * a table with PASS / OVER BUDGET; exits non-zero when something broke, not when a budget is
 * missed (the figures depend on the machine).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from '@playwright/test';
import { addDays } from '../../shared/dates.js';
import { openLocalInstance, type LocalInstance } from '../../electron/host/local-instance.js';
import { newDataDir, startApp } from '../e2e/app.js';
import { benchSize } from '../helpers/bench-size.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const stageCount = 5;
// A smoke run (bench-size.ts) seeds a board still dense enough to find a card to drag in
// the first screen, and measures every step in fewer frames and runs.
const plannedCollections = benchSize(1667, 150);
const backlogCollections = benchSize(500, 20);
/** Each planned collection makes 3 cards: the full board has at least 5,000. */
const minimumCards = benchSize(5000, 3 * plannedCollections);
const frames = benchSize(120, 20);
const remounts = benchSize(5, 2);
/** The pause before each scroll pass, so the loading of the one before has settled. */
const settleMs = benchSize(1500, 300);
/**
 * How long a dropped card may take to show at its new place before it counts as not moved: a
 * smoke run fails only when the drop is broken, not when a busy machine makes it slow.
 */
const dropWaitMs = benchSize(2000, 10_000);

const problems: string[] = [];

// ---- seeding ------------------------------------------------------------------------------

async function must(
  instance: LocalInstance,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  body?: unknown,
  query?: Record<string, string>,
): Promise<any> {
  const response = await instance.request({ method, path, ...(body !== undefined ? { body } : {}), ...(query ? { query } : {}) });
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

function localToday(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

async function seed(folder: string): Promise<{ cards: number; backlog: number }> {
  const instance = await openLocalInstance(folder);
  try {
    const activities: string[] = [];
    for (let i = 0; i < stageCount; i++)
      activities.push((await must(instance, 'POST', '/v1/activity', { description: `Step ${i + 1}`, resource_type: 'employee' })).id);
    const board = await must(
      instance,
      'POST',
      '/v1/board',
      {
        name: 'Bench line',
        dependency_behavior: 'push',
        stages: activities.map((id, i) => ({
          name: ['Cutting', 'Welding', 'Painting', 'Assembly', 'Packing'][i],
          priority: i,
          activities: [{ id, priority: 0 }],
        })),
        statuses: [
          { name: 'To do', entry: true, color: 'blue', priority: 0 },
          { name: 'Busy', color: 'orange', priority: 1 },
          { name: 'Done', exit: true, color: 'green', priority: 2 },
        ],
        labels: [
          { name: 'Rush', color: 'red', priority: 0 },
          { name: 'Export', color: 'teal', priority: 1 },
        ],
      },
      { with: 'stages' },
    );
    for (let i = 0; i < 10; i++) {
      await must(instance, 'POST', '/v1/resource', {
        name: `Worker ${i + 1}`,
        type: 'employee',
        boards: [
          {
            id: board.id,
            active: true,
            stages: board.stages.map((stage: { id: string }) => ({ id: stage.id, percentage: 50, active: true })),
          },
        ],
      });
    }
    // Three consecutive stages per collection, starting anywhere from 4 months ago to 8 ahead.
    const first = addDays(localToday(), -120);
    for (let i = 0; i < plannedCollections; i++) {
      const offset = i % (stageCount - 2);
      const collection = await must(instance, 'POST', '/v1/collection', {
        name: `Order ${10000 + i}`,
        board_id: board.id,
        due_date: addDays(first, Math.floor((i * 365) / plannedCollections) + 20),
        activities: [0, 1, 2].map((k) => ({ id: activities[offset + k], time: 480 * (1 + ((i + k) % 3)) })),
      });
      await must(instance, 'POST', `/v1/collection/${collection.id}/board/${board.id}`, {
        start: addDays(first, Math.floor((i * 365) / plannedCollections)),
      });
    }
    for (let i = 0; i < backlogCollections; i++) {
      await must(instance, 'POST', '/v1/collection', {
        name: `Backlog ${20000 + i}`,
        board_id: board.id,
        due_date: addDays(localToday(), 10 + (i % 200)),
        activities: [{ id: activities[i % stageCount], time: 240 + (i % 4) * 120 }],
      });
    }
    const cards = (await must(instance, 'GET', '/v1/card', undefined, { limit: '0' })).count as number;
    const backlog = (await must(instance, 'GET', '/v1/collection', undefined, { limit: '0', filter: 'status:eq:not_planned' }))
      .count as number;
    return { cards, backlog };
  } finally {
    await instance.close();
  }
}

// ---- measuring ------------------------------------------------------------------------------

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  /** Thread (CPU) time of the event. */
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: unknown };
}

interface FrameWork {
  /** Wall-clock ms of the main thread's tasks per frame (includes time other processes took the CPU). */
  wall: number[];
  /** CPU ms the main thread itself spent per frame (the trace's thread time). */
  cpu: number[];
}

/**
 * Main-thread milliseconds per frame between two User Timing marks: every top-level task of
 * the renderer's main thread, summed per frame (frames start at `BeginMainThreadFrame`), as
 * wall-clock time and as the thread's own CPU time. On a busy machine the two differ: wall time
 * counts the slices other processes got, CPU time only the page's own work.
 */
function frameWork(trace: Buffer, startMark: string, endMark: string): FrameWork {
  const events = (JSON.parse(trace.toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
  const start = events.find((e) => e.name === startMark);
  const end = events.find((e) => e.name === endMark);
  if (!start || !end) throw new Error(`trace lacks the marks ${startMark} / ${endMark}`);
  const main = new Set(
    events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`),
  );
  const onMain = (e: TraceEvent) => main.has(`${e.pid}:${e.tid}`) && e.ts >= start.ts && e.ts <= end.ts;
  const frameStarts = events
    .filter((e) => e.name === 'BeginMainThreadFrame' && onMain(e))
    .map((e) => e.ts)
    .sort((a, b) => a - b);
  // Top-level tasks only: `ThreadControllerImpl::RunTask` nests inside `RunTask`.
  const tasks = events.filter((e) => e.ph === 'X' && e.name === 'RunTask' && onMain(e));
  const wall = frameStarts.slice(0, -1).map(() => 0);
  const cpu = frameStarts.slice(0, -1).map(() => 0);
  for (const task of tasks) {
    // The frame the task started in.
    let lo = 0;
    let hi = frameStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (frameStarts[mid]! <= task.ts) lo = mid;
      else hi = mid - 1;
    }
    if (lo < wall.length && task.ts >= frameStarts[0]!) {
      wall[lo]! += (task.dur ?? 0) / 1000;
      cpu[lo]! += (task.tdur ?? task.dur ?? 0) / 1000;
    }
  }
  return { wall, cpu };
}

/** Animation-frame intervals (ms) of a loop that runs `step(i)` once per frame for `count` frames. */
async function perFrame(page: Page, script: string, count: number): Promise<number[]> {
  return page.evaluate(
    ({ script, count }) =>
      new Promise<number[]>((done) => {
        const step = new Function('i', script) as (i: number) => void;
        const stamps: number[] = [];
        let i = 0;
        const frame = (time: number) => {
          stamps.push(time);
          if (i < count) {
            step(i++);
            requestAnimationFrame(frame);
          } else done(stamps.slice(1).map((t, n) => t - stamps[n]!));
        };
        requestAnimationFrame(frame);
      }),
    { script, count },
  );
}

function quantile(samples: readonly number[], q: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

interface Row {
  what: string;
  figure: number;
  budget: number | null;
  note: string;
}

function printTable(rows: Row[]): void {
  const cells = [
    ['measure', 'figure (ms)', 'budget (ms)', 'result', 'note'],
    ...rows.map((r) => [
      r.what,
      r.figure.toFixed(1),
      r.budget === null ? '—' : String(r.budget),
      r.budget === null ? 'info' : r.figure <= r.budget ? 'PASS' : 'OVER BUDGET',
      r.note,
    ]),
  ];
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)));
  console.log('');
  cells.forEach((row, n) => {
    console.log(
      row
        .map((cell, i) => (i === 1 || i === 2 ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
        .join('  ')
        .trimEnd(),
    );
    if (n === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  });
}

async function main() {
  if (!process.argv.includes('--no-build')) {
    const build = spawnSync(process.execPath, [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], {
      cwd: root,
      stdio: 'ignore',
    });
    if (build.status !== 0) throw new Error('the build failed (node node_modules/electron-vite/bin/electron-vite.js build)');
  }
  // `--data-dir=<folder>` keeps the seeded folder for the next run (seeding takes about a minute).
  const kept = process.argv.find((arg) => arg.startsWith('--data-dir='))?.slice('--data-dir='.length);
  if (kept) mkdirSync(kept, { recursive: true });
  const folder = kept ?? newDataDir();
  const seedStarted = performance.now();
  const seeded =
    kept && existsSync(join(kept, 'seeded.json'))
      ? (JSON.parse(readFileSync(join(kept, 'seeded.json'), 'utf8')) as Awaited<ReturnType<typeof seed>>)
      : await seed(folder);
  if (kept) writeFileSync(join(kept, 'seeded.json'), JSON.stringify(seeded));
  console.log(
    `Seeded ${seeded.cards} cards and ${seeded.backlog} backlog collections in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s.`,
  );
  if (seeded.cards < minimumCards) problems.push(`only ${seeded.cards} cards were seeded`);

  const app = await startApp(folder);
  const browser = await chromium.launch({
    executablePath: process.env.PLANNER_CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const rows: Row[] = [];
  try {
    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    // tsx keeps function names with a `__name` helper that the page does not have.
    await page.addInitScript({ content: 'window.__name = (f) => f;' });

    // First render, cold: the page loads, the cards arrive, the first frame shows them.
    await page.goto(app.url);
    await page.waitForFunction(() => performance.getEntriesByName('planboard:cards-painted').length > 0, undefined, { timeout: 60_000 });
    const cold = await page.evaluate(() => {
      const painted = performance.getEntriesByName('planboard:cards-painted')[0] as PerformanceMark;
      const dataAt = (painted.detail as { dataAt: number }).dataAt;
      return { render: painted.startTime - dataAt, total: painted.startTime, cards: document.querySelectorAll('.pb-card').length };
    });
    rows.push({
      what: 'first render after the data is in hand',
      figure: cold.render,
      budget: 500,
      note: `from the last block of cards read to the frame showing them; ${cold.cards} cards rendered`,
    });
    rows.push({
      what: '  (page load to cards on screen)',
      figure: cold.total,
      budget: null,
      note: 'includes starting the page and reading the cards',
    });

    // First render from cached data: another screen and back.
    const remount: number[] = [];
    for (let run = 0; run < remounts; run++) {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Projects', exact: true }).click();
      await page.waitForSelector('.pb-card', { state: 'detached' });
      remount.push(
        await page.evaluate(
          () =>
            new Promise<number>((done) => {
              const button = [...document.querySelectorAll<HTMLButtonElement>('nav[aria-label="Main"] button')].find(
                (b) => b.textContent === 'Planboard',
              )!;
              const started = performance.now();
              const check = () => {
                if (document.querySelector('.pb-card')) requestAnimationFrame(() => setTimeout(() => done(performance.now() - started), 0));
                else requestAnimationFrame(check);
              };
              button.click();
              requestAnimationFrame(check);
            }),
        ),
      );
    }
    const cards = await page.locator('.pb-card').count();
    rows.push({
      what: `first render from cached data (p50 of ${remounts})`,
      figure: quantile(remount, 0.5),
      budget: 500,
      note: `Projects → Planboard, ${cards} cards rendered`,
    });

    // Month zoom: the widest view (about four months of cards), until its cards are loaded and shown.
    const month = await page.evaluate(
      () =>
        new Promise<{ ms: number; cards: number }>((done) => {
          const button = [...document.querySelectorAll<HTMLButtonElement>('button')].find((b) => b.textContent === 'Month')!;
          const started = performance.now();
          // Done at the first frame after which nothing changes for 20 frames: month zoom shown,
          // nothing loading, the same cards.
          let settledAt = 0;
          let settledCards = -1;
          let quiet = 0;
          const check = () => {
            const cards = document.querySelectorAll('.pb-card').length;
            const ready = document.querySelector('.pb-scroller--month') && !document.querySelector('.planboard__loading');
            if (!ready || cards !== settledCards) {
              settledCards = ready ? cards : -1;
              settledAt = performance.now();
              quiet = 0;
            } else if (++quiet >= 20) return done({ ms: settledAt - started, cards });
            requestAnimationFrame(check);
          };
          button.click();
          requestAnimationFrame(check);
        }),
    );
    rows.push({
      what: '  (week → month zoom, cards loaded and shown)',
      figure: month.ms,
      budget: null,
      note: `${month.cards} cards rendered; includes reading the months not loaded yet`,
    });
    await page.getByRole('group', { name: 'Zoom' }).getByRole('button', { name: 'Week' }).click();
    await page.waitForSelector('.pb-scroller--week');

    const backlogItems = await page.getByRole('list', { name: 'Backlog collections' }).getByRole('listitem').count();
    const backlogCount = await page.getByRole('complementary', { name: 'Backlog' }).getByRole('heading').textContent();
    if (!backlogCount?.includes(String(backlogCollections))) problems.push(`the backlog says ${backlogCount}`);

    // Dragging: pointer-down on a card in view, then one pointer move per frame.
    await page.waitForTimeout(500);
    const target = await page.evaluate(() => {
      const scroller = document.querySelector('.pb-scroller')!.getBoundingClientRect();
      const card = [...document.querySelectorAll<HTMLElement>('.pb-card')].find((el) => {
        const box = el.getBoundingClientRect();
        return (
          box.left > scroller.left + 300 &&
          box.right < scroller.right - 400 &&
          box.top > scroller.top + 60 &&
          box.bottom < scroller.bottom - 60 &&
          box.width >= 28
        );
      })!;
      const box = card.getBoundingClientRect();
      const dayWidth = parseFloat(getComputedStyle(document.querySelector('.pb-scroller')!).getPropertyValue('--day-width'));
      return { id: card.dataset.cardId!, x: box.left + box.width / 2, y: box.top + box.height / 2, left: card.style.left, dayWidth };
    });
    await page.evaluate(({ id, x, y }) => {
      const card = document.querySelector(`[data-card-id="${id}"]`)!;
      card.dispatchEvent(
        new PointerEvent('pointerdown', { bubbles: true, pointerId: 1, button: 0, buttons: 1, clientX: x, clientY: y, isPrimary: true }),
      );
      (window as unknown as { benchTarget: { x: number; y: number } }).benchTarget = { x, y };
    }, target);
    await browser.startTracing(page, {
      categories: [
        'devtools.timeline',
        'disabled-by-default-devtools.timeline',
        'disabled-by-default-devtools.timeline.frame',
        'blink.user_timing',
        'toplevel',
      ],
    });
    await page.evaluate(() => performance.mark('bench:drag:start'));
    const dragIntervals = await perFrame(
      page,
      `const t = window.benchTarget;
       window.dispatchEvent(new PointerEvent('pointermove', { bubbles: true, pointerId: 1, buttons: 1, clientX: t.x + (i % 60) * 7, clientY: t.y + Math.sin(i / 10) * 60, isPrimary: true }));`,
      frames,
    );
    await page.evaluate(() => performance.mark('bench:drag:end'));

    // The drop: a week to the right on the same stage, visible before the API answers. A whole
    // week keeps the card on the weekdays it had: a drop onto a non-workday is refused
    // (docs/API.md "Cards on non-workdays"), and four days, as before, often ended on a Saturday.
    const commit = await page.evaluate(
      ({ id, x, y, dayWidth, waitMs }) =>
        new Promise<{ ms: number; moved: boolean }>((done) => {
          window.dispatchEvent(
            new PointerEvent('pointermove', {
              bubbles: true,
              pointerId: 1,
              buttons: 1,
              clientX: x + 7 * dayWidth,
              clientY: y,
              isPrimary: true,
            }),
          );
          const card = document.querySelector<HTMLElement>(`[data-card-id="${id}"]`)!;
          const before = card.style.left;
          const started = performance.now();
          const check = () => {
            const now = document.querySelector<HTMLElement>(`[data-card-id="${id}"]`);
            if (now && now.style.left !== before && now.style.transform === '')
              requestAnimationFrame(() => setTimeout(() => done({ ms: performance.now() - started, moved: true }), 0));
            else if (performance.now() - started > waitMs) done({ ms: performance.now() - started, moved: false });
            else requestAnimationFrame(check);
          };
          window.dispatchEvent(
            new PointerEvent('pointerup', {
              bubbles: true,
              pointerId: 1,
              button: 0,
              clientX: x + 7 * dayWidth,
              clientY: y,
              isPrimary: true,
            }),
          );
          check();
        }),
      { ...target, waitMs: dropWaitMs },
    );
    if (!commit.moved) problems.push('the dropped card did not move');

    // Scrolling 3 months (91 days at week zoom) in 120 frames: forward into days not loaded yet,
    // back over the same days (cached), and forward again.
    const scrollIntervals: number[][] = [];
    for (const [pass, direction] of [
      [0, 1],
      [1, -1],
      [2, 1],
    ] as const) {
      await page.waitForTimeout(settleMs);
      await page.evaluate((n) => performance.mark(`bench:scroll${n}:start`), pass);
      scrollIntervals.push(
        await perFrame(
          page,
          `document.querySelector('.pb-scroller').scrollLeft += ${(direction * 91 * target.dayWidth) / frames};`,
          frames,
        ),
      );
      await page.evaluate((n) => performance.mark(`bench:scroll${n}:end`), pass);
    }
    const trace = await browser.stopTracing();
    const traceFile = process.argv.find((arg) => arg.startsWith('--trace='))?.slice('--trace='.length);
    if (traceFile) writeFileSync(traceFile, trace);

    const dragWork = frameWork(trace, 'bench:drag:start', 'bench:drag:end');
    const scrollWork = [0, 1, 2].map((pass) => frameWork(trace, `bench:scroll${pass}:start`, `bench:scroll${pass}:end`));
    const cachedWork: FrameWork = {
      wall: [...scrollWork[1]!.wall, ...scrollWork[2]!.wall],
      cpu: [...scrollWork[1]!.cpu, ...scrollWork[2]!.cpu],
    };
    const cachedIntervals = [...scrollIntervals[1]!, ...scrollIntervals[2]!];
    const late = (intervals: number[]) => intervals.filter((ms) => ms > 20).length;
    // CPU per frame: a frame's 16 ms for a drag (issue 9); a scroll's stricter budgets are issue
    // 39's, 12 ms into days not loaded yet and 8 ms over cached days.
    const frameRows = (what: string, work: FrameWork, intervals: number[], cpuBudget: number) => {
      rows.push({
        what: `${what}: main-thread CPU/frame p95`,
        figure: quantile(work.cpu, 0.95),
        budget: cpuBudget,
        note: `${work.cpu.length} frames; median ${quantile(work.cpu, 0.5).toFixed(1)}, max ${Math.max(...work.cpu).toFixed(1)} ms`,
      });
      rows.push({
        what: `${what}: main-thread wall/frame p95`,
        figure: quantile(work.wall, 0.95),
        budget: 16,
        note: `median ${quantile(work.wall, 0.5).toFixed(1)}, max ${Math.max(...work.wall).toFixed(1)} ms (includes other processes' slices)`,
      });
      rows.push({
        what: `${what}: frame interval p95`,
        figure: quantile(intervals, 0.95),
        budget: null,
        note: `${late(intervals)} of ${intervals.length} frames later than 20 ms (vsync is 16.7 ms)`,
      });
    };
    frameRows('drag', dragWork, dragIntervals, 16);
    rows.push({
      what: 'drag commit visible',
      figure: commit.ms,
      budget: 100,
      note: 'pointer-up to the frame with the card in its new place',
    });
    frameRows('scroll 3 months, loading', scrollWork[0]!, scrollIntervals[0]!, 12);
    frameRows('scroll 3 months, cached', cachedWork, cachedIntervals, 8);
    console.log(
      `\nLoad average while measuring: ${loadavg()
        .map((n) => n.toFixed(1))
        .join(' ')} on ${cpus().length} cores.`,
    );
    console.log(
      `Board: ${stageCount} stages, ${seeded.cards} cards, ${seeded.backlog} backlog collections (${backlogItems} backlog rows rendered). Viewport 1600×1000, week zoom, Chromium ${browser.version()}.`,
    );
  } finally {
    await browser.close();
    await app.stop();
    if (!kept) rmSync(folder, { recursive: true, force: true });
  }
  printTable(rows);
  if (problems.length > 0) {
    console.log(`\nProblems:\n- ${problems.join('\n- ')}`);
    process.exit(1);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
