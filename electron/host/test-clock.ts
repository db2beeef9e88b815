/**
 * PLANNER_NOW: the instant a headless process's clock starts at, for tests that must not
 * depend on the day they run (docs/architecture.md "Tests", "A fixed clock"). An ISO 8601
 * instant with its offset, e.g. `2026-12-07T10:00:00+01:00`; the clock runs on from there
 * (shared/clock.ts). The server and the browser host read it; the page a browser host serves
 * keeps its browser's clock, which Playwright sets to the same instant.
 */
import { startClockAt } from '../../shared/clock.js';
import { ArgsError } from './cli-args.js';

/** Starts the clock at PLANNER_NOW when it is set; answers the line to print, or undefined. */
export function startClockFromEnvironment(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const value = env.PLANNER_NOW;
  if (value === undefined || value === '') return undefined;
  // An instant, not a day: a bare date would mean midnight UTC, a different day east of it.
  const parts = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.exec(value);
  const instant = parts ? Date.parse(value) : NaN;
  // Date.parse takes 30 February for 1 March; a day that does not exist is a typing error.
  const realDay = parts && new Date(Date.UTC(+parts[1]!, +parts[2]! - 1, +parts[3]!)).getUTCDate() === +parts[3]!;
  if (Number.isNaN(instant) || !realDay)
    throw new ArgsError(`PLANNER_NOW must be an instant such as 2026-12-07T10:00:00+01:00, not "${value}"`);
  startClockAt(instant);
  return `Clock: starts at ${value} (PLANNER_NOW), not the machine's time; for tests only.`;
}
