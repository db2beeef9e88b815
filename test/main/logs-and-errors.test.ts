/**
 * The log folder (rotated by size, N files kept) and errors nobody caught: logged with a
 * reference and shown, coalesced so a loop of errors does not bury the planner in dialogs.
 */
import { EventEmitter } from 'node:events';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { catchProcessErrors, ErrorReporter, parseErrorReport, type ShownError } from '../../electron/main/error-reports.js';
import { captureConsole, RotatingLog } from '../../electron/main/log-file.js';
import { tempDir } from '../helpers/api.js';

vi.mock('electron', () => ({}));

let folder: string;

beforeEach(() => {
  folder = tempDir();
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

describe('the rotating log', () => {
  it('writes timestamped lines with their level', () => {
    const log = new RotatingLog(folder, 'main', { now: () => new Date('2025-06-01T10:00:00Z') });
    log.write('info', 'Planner starting on', '/data');
    log.write('error', new Error('boom'));
    const text = readFileSync(join(folder, 'main.log'), 'utf8');
    expect(text).toMatch(/^2025-06-01T10:00:00\.000Z INFO {2}Planner starting on \/data\n/);
    expect(text).toMatch(/2025-06-01T10:00:00\.000Z ERROR Error: boom\n\s+at /);
  });

  it('rotates by size and keeps only N files', () => {
    const log = new RotatingLog(folder, 'main', { maxBytes: 1000, keep: 3 });
    for (let i = 0; i < 100; i++) log.write('info', `line ${String(i).padStart(3, '0')} ${'x'.repeat(60)}`);
    expect(readdirSync(folder).sort()).toEqual(['main.1.log', 'main.2.log', 'main.log']);
    for (const file of readdirSync(folder)) expect(statSync(join(folder, file)).size).toBeLessThanOrEqual(1000);
    // Newest in main.log, the one before in main.1.log, oldest kept in main.2.log.
    expect(readFileSync(join(folder, 'main.log'), 'utf8')).toContain('line 099');
    const order = ['main.2.log', 'main.1.log', 'main.log'].map((file) =>
      Number(/line (\d+)/.exec(readFileSync(join(folder, file), 'utf8'))![1]),
    );
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(readFileSync(join(folder, 'main.2.log'), 'utf8')).not.toContain('line 000');
  });

  it('continues an existing file after a restart, counting its size', () => {
    new RotatingLog(folder, 'main', { maxBytes: 300, keep: 2 }).write('info', 'x'.repeat(200));
    const again = new RotatingLog(folder, 'main', { maxBytes: 300, keep: 2 });
    again.write('info', 'y'.repeat(200));
    expect(readFileSync(join(folder, 'main.1.log'), 'utf8')).toContain('xxx');
    expect(readFileSync(join(folder, 'main.log'), 'utf8')).toContain('yyy');
  });

  it('cuts one enormous line instead of letting it defeat the limit', () => {
    const log = new RotatingLog(folder, 'main', { maxBytes: 1000, keep: 2 });
    log.write('error', 'z'.repeat(100_000));
    expect(statSync(join(folder, 'main.log')).size).toBeLessThan(1000);
    expect(readFileSync(join(folder, 'main.log'), 'utf8')).toContain('(cut)');
  });

  it('never throws when the folder is gone', () => {
    const log = new RotatingLog(folder);
    rmSync(folder, { recursive: true, force: true });
    expect(() => log.write('error', 'nowhere to go')).not.toThrow();
  });

  it('receives everything written to the console, which still prints it', () => {
    const log = new RotatingLog(folder);
    const printed: unknown[][] = [];
    const target = {
      log: (...a: unknown[]) => printed.push(a),
      info: (...a: unknown[]) => printed.push(a),
      warn: (...a: unknown[]) => printed.push(a),
      error: (...a: unknown[]) => printed.push(a),
      debug: (...a: unknown[]) => printed.push(a),
    } as unknown as Console;
    const restore = captureConsole(log, target);
    target.error('Bridge request failed (reference %s):', 'abc', new Error('db closed'));
    target.warn('careful');
    restore();
    target.info('not logged');
    const text = readFileSync(join(folder, 'main.log'), 'utf8');
    expect(text).toMatch(/ERROR Bridge request failed \(reference abc\): Error: db closed/);
    expect(text).toMatch(/WARN {2}careful/);
    expect(text).not.toContain('not logged');
    expect(printed).toHaveLength(3);
  });
});

describe('errors nobody caught', () => {
  function reporter(options: { quietMs?: number; now?: () => number } = {}) {
    const log = new RotatingLog(folder);
    const shown: ShownError[] = [];
    let dismiss: () => void = () => {};
    const present = vi.fn((error: ShownError) => {
      shown.push(error);
      return new Promise<void>((resolve) => (dismiss = resolve));
    });
    const errors = new ErrorReporter(log, { present, ...options });
    return { errors, shown, present, dismiss: () => dismiss(), text: () => readFileSync(join(folder, 'main.log'), 'utf8') };
  }

  it('are logged with a reference and shown with the same reference', () => {
    const { errors, shown, text } = reporter();
    const reference = errors.report('main', new TypeError('x is undefined'), { context: 'uncaught exception' });
    expect(reference).toMatch(/^[0-9a-f]{8}$/);
    expect(text()).toMatch(
      new RegExp(`ERROR \\[main\\] uncaught exception: TypeError: x is undefined[\\s\\S]*\\(reference ${reference}\\)`),
    );
    expect(shown).toEqual([{ origin: 'main', reference, message: 'x is undefined', unshown: 0 }]);
  });

  it('show one dialog at a time, and the next one counts those logged meanwhile', async () => {
    let now = 0;
    const { errors, shown, dismiss, present } = reporter({ quietMs: 60_000, now: () => now });
    errors.report('main', new Error('first'));
    errors.report('main', new Error('second'));
    errors.report('main', new Error('third'));
    expect(present).toHaveBeenCalledTimes(1);
    dismiss();
    await new Promise((resolve) => setImmediate(resolve));
    now = 30_000;
    errors.report('main', new Error('fourth'));
    expect(present).toHaveBeenCalledTimes(1);
    now = 61_000;
    errors.report('main', new Error('fifth'));
    expect(present).toHaveBeenCalledTimes(2);
    expect(shown[1]).toMatchObject({ message: 'fifth', unshown: 3 });
  });

  it('from a page are logged; shown only when the page did not show them itself', () => {
    const { errors, present, text } = reporter();
    errors.reportFromRenderer({
      message: 'Cannot read properties of null',
      stack: 'at Board (Board.tsx:10)',
      source: 'boundary',
      shown: true,
    });
    expect(present).not.toHaveBeenCalled();
    errors.reportFromRenderer({ message: 'Unhandled rejection', source: 'unhandledrejection' });
    expect(present).toHaveBeenCalledTimes(1);
    expect(text()).toMatch(/\[renderer\] boundary: Cannot read properties of null\nat Board \(Board\.tsx:10\)/);
  });

  it('from a page are limited per minute, and the rest are counted in the log', () => {
    let now = 0;
    const { errors, text } = reporter({ now: () => now });
    const references = Array.from({ length: 40 }, (_, i) => errors.reportFromRenderer({ message: `error ${i}`, shown: true }));
    expect(references.filter(Boolean)).toHaveLength(30);
    now = 60_001;
    errors.reportFromRenderer({ message: 'later', shown: true });
    expect(text()).toMatch(/10 more error reports were not logged/);
    expect(text()).toContain('later');
  });

  it('in main are caught from the process: uncaught exceptions and unhandled rejections', () => {
    const { errors, shown } = reporter({ quietMs: 0 });
    const fakeProcess = new EventEmitter() as unknown as NodeJS.Process;
    const stop = catchProcessErrors(errors, fakeProcess);
    fakeProcess.emit('uncaughtException', new Error('thrown in a timer'));
    expect(shown.map((error) => error.message)).toEqual(['thrown in a timer']);
    stop();
    expect(fakeProcess.listenerCount('uncaughtException')).toBe(0);
    expect(fakeProcess.listenerCount('unhandledRejection')).toBe(0);
  });

  it('in main are written down even if showing them fails', async () => {
    const log = new RotatingLog(folder);
    const errors = new ErrorReporter(log, { present: () => Promise.reject(new Error('no display')) });
    errors.report('main', new Error('original'));
    await new Promise((resolve) => setImmediate(resolve));
    const text = readFileSync(join(folder, 'main.log'), 'utf8');
    expect(text).toContain('original');
    expect(text).toContain('Could not show an error dialog: Error: no display');
  });
});

describe('an error report from the page', () => {
  it('is accepted as strings, cut to size', () => {
    expect(parseErrorReport({ message: 'm'.repeat(3000), stack: 's'.repeat(30_000), source: 'boundary', shown: false })).toEqual({
      message: 'm'.repeat(2000),
      stack: 's'.repeat(20_000),
      source: 'boundary',
      shown: false,
    });
  });

  it.each([
    ['not an object', 'boom'],
    ['no message', { stack: 'x' }],
    ['an empty message', { message: '' }],
    ['a message that is not a string', { message: { toString: 'x' } }],
    ['an unknown key', { message: 'x', level: 'fatal' }],
    ['shown that is not a boolean', { message: 'x', shown: 'yes' }],
  ])('is refused with %s', (_what, payload) => {
    expect(parseErrorReport(payload)).toHaveProperty('error');
  });

  it('leaves no file behind when nothing was logged', () => {
    expect(existsSync(join(folder, 'main.log'))).toBe(false);
  });
});
