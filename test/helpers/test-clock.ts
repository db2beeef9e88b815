/**
 * The day a test run believes it is (docs/architecture.md "Tests", "A fixed clock"). Tests never
 * read the machine's date to decide what they expect: a suite that depends on today calls
 * `fixTheClock()`, and the end-to-end specs get the same instant for their pages (Playwright's
 * clock) and for the server processes they start (PLANNER_NOW).
 *
 * `npm test` runs the whole suite at the first day below, and the planboard, capacity, time and
 * planning suites again at others (scripts/test.mjs, vitest.config.ts). The days are hard on
 * purpose, and all are seen from Europe/Amsterdam, where the planners are:
 */
import { machineMs, nowDate, startClockAt } from '../../shared/clock.js';

export const hardDays = {
  /**
   * A Monday: "next Monday" is a whole week away, so a card placed "twelve days after next
   * Monday" lands in the third week, past a first screen that starts today.
   */
  monday: '2026-12-07T10:00:00+01:00',
  /**
   * A Sunday, and the day summer time ends in Europe/Amsterdam (03:00 CEST becomes 02:00 CET):
   * a 25-hour day, on a non-workday, with the week starting tomorrow.
   */
  summerTimeEnds: '2026-10-25T10:00:00+01:00',
  /** 31 December whose ISO week is week 1 of the next year (2026-W01): week numbers and years disagree. */
  newYearsEve: '2025-12-31T10:00:00+01:00',
  /** 29 February, a Tuesday: a day that most years lack, at the end of a short month. */
  leapDay: '2028-02-29T10:00:00+01:00',
} as const;

/** The planners' time zone, for pages and server processes alike. */
export const plannersTimeZone = 'Europe/Amsterdam';

/**
 * The instant this run starts at: PLANNER_NOW when the runner set it, else the Monday. Its
 * `@<ms>` part, when there is one, anchors it to the machine's clock (electron/host/test-clock.ts).
 */
const given = process.env.PLANNER_NOW || hardDays.monday;
export const testNow: string = given.split('@')[0]!;
const anchoredAt = given.includes('@') ? Number(given.split('@')[1]) : undefined;

/** The date of `testNow` in the planners' time zone, `YYYY-MM-DD`. */
export const testToday: string = new Intl.DateTimeFormat('en-CA', {
  timeZone: plannersTimeZone,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
}).format(new Date(testNow));

/** The run's time now: `testNow` plus the time since the run's clock started there. */
export function runNow(): number {
  return Date.parse(testNow) + (anchoredAt === undefined ? 0 : machineMs() - anchoredAt);
}

let fixed = false;

/**
 * Starts this process's clock at `testNow` (shared/clock.ts). The server processes the suite
 * starts from here on get the same clock (`clockEnvironment`, test/helpers/process.ts).
 */
export function fixTheClock(): void {
  startClockAt(runNow());
  fixed = true;
}

/**
 * PLANNER_NOW for a process started now: this process's clock, anchored to the machine's, so
 * that the process reads the same time as this one however long it takes to start. Nothing
 * when the clock is the machine's.
 */
export function clockEnvironment(): Record<string, string> {
  return fixed ? { PLANNER_NOW: `${nowDate().toISOString()}@${machineMs()}` } : {};
}
