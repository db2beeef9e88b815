/**
 * PLANNER_NOW: the instant a headless process's clock reads, for tests that must not depend on
 * the day they run (docs/architecture.md "Tests", "A fixed clock"). An ISO 8601 instant with
 * its offset, e.g. `2026-12-07T10:00:00+01:00`: the clock starts there when the process starts
 * and runs on (shared/clock.ts). `…@<ms>` anchors it instead to the machine's clock: the
 * instant held when the machine's clock read <ms> (ms since the epoch), so every process a test
 * starts, however long it takes to start, reads the same time as the test itself.
 * The server and the browser host read it; the page a browser host serves keeps its browser's
 * clock, which Playwright sets to the same instant.
 */
import { startClockAt } from '../../shared/clock.js';
import { ArgsError } from './cli-args.js';

/** PLANNER_NOW's instant and, when anchored, the machine's time it held at; undefined when not an instant. */
export function readTestClock(value: string): { instant: number; at?: number } | undefined {
  // An instant, not a day: a bare date would mean midnight UTC, a different day east of it.
  const parts = /^((\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))(@(\d{1,15}))?$/.exec(value);
  if (!parts) return undefined;
  const instant = Date.parse(parts[1]!);
  // Date.parse takes 30 February for 1 March; a day that does not exist is a typing error.
  const realDay = new Date(Date.UTC(+parts[2]!, +parts[3]! - 1, +parts[4]!)).getUTCDate() === +parts[4]!;
  if (Number.isNaN(instant) || !realDay) return undefined;
  return parts[9] === undefined ? { instant } : { instant, at: Number(parts[9]) };
}

/** Starts the clock at PLANNER_NOW when it is set; answers the line to print, or undefined. */
export function startClockFromEnvironment(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const value = env.PLANNER_NOW;
  if (value === undefined || value === '') return undefined;
  const clock = readTestClock(value);
  if (!clock) throw new ArgsError(`PLANNER_NOW must be an instant such as 2026-12-07T10:00:00+01:00, not "${value}"`);
  startClockAt(clock.instant, clock.at);
  return `Clock: starts at ${value} (PLANNER_NOW), not the machine's time; for tests only.`;
}
