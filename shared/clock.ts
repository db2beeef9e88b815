/**
 * "Now", for the whole process: every rule that asks what day or time it is (today's date, a
 * record's `created_at`, a timer, a token's expiry, a sync clock) reads it here and nowhere
 * else, so a test can set it once (docs/architecture.md "Tests", "A fixed clock"). ESLint
 * refuses `Date.now()` and an argument-less `new Date()` outside this file.
 *
 * In the field it is the machine's clock. A test starts it at a chosen instant, from where it
 * runs on at the machine's pace, so that durations, timeouts and back-off still behave. The
 * server processes a test starts read that instant from PLANNER_NOW
 * (electron/host/test-clock.ts); a page under Playwright gets it from Playwright's clock, which
 * stands in for the page's own `Date`.
 */

let shiftMs = 0;

/** Milliseconds since the epoch, as `Date.now()`, on the process's clock. */
export function nowMs(): number {
  return Date.now() + shiftMs;
}

/** The process's clock as a Date. */
export function nowDate(): Date {
  return new Date(nowMs());
}

/**
 * Starts the clock at `instantMs` (ms since the epoch); it runs on from there. For tests.
 * `machineMs`: the machine's time at which the clock read that instant (default: now), so that
 * processes started one after the other can share one clock exactly.
 */
export function startClockAt(instantMs: number, machineMs: number = Date.now()): void {
  if (!Number.isFinite(instantMs) || !Number.isFinite(machineMs)) throw new RangeError(`not an instant: ${instantMs}`);
  shiftMs = instantMs - machineMs;
}

/** The machine's own time, never the test clock: for anchoring a clock handed to another process. */
export function machineMs(): number {
  return Date.now();
}

/** Back to the machine's clock. */
export function useMachineClock(): void {
  shiftMs = 0;
}
