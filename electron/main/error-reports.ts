/**
 * Errors nobody caught, in main or in a window, are written to the log with a reference and
 * shown to the planner: never silent. Dialogs are coalesced (one at a time, at most one per
 * quiet period), so a loop that throws does not bury the planner in dialogs; the next
 * dialog says how many more were logged meanwhile.
 */
import { randomBytes } from 'node:crypto';
import type { ErrorReport } from '../../shared/ipc.js';
import type { RotatingLog } from './log-file.js';
import { nowMs } from '../../shared/clock.js';

export type ErrorOrigin = 'main' | 'renderer' | 'renderer-gone';

export interface ShownError {
  origin: ErrorOrigin;
  reference: string;
  message: string;
  /** Errors logged but not shown since the last dialog. */
  unshown: number;
}

export interface ErrorReporterOptions {
  /** Shows one error; resolves when the planner has dismissed it. */
  present(error: ShownError): Promise<void>;
  quietMs?: number;
  /** Renderer reports accepted per minute; more are counted, not logged one by one. */
  rendererReportsPerMinute?: number;
  now?: () => number;
}

export class ErrorReporter {
  private presenting = false;
  private lastShownAt = -Infinity;
  private unshown = 0;
  private windowStart = 0;
  private windowCount = 0;
  private dropped = 0;

  constructor(
    private readonly log: RotatingLog,
    private readonly options: ErrorReporterOptions,
  ) {}

  private get now(): number {
    return (this.options.now ?? nowMs)();
  }

  /** Logs the error and shows it (or counts it for the next dialog). Returns its reference. */
  report(origin: ErrorOrigin, error: unknown, options: { show?: boolean; context?: string } = {}): string {
    const reference = randomBytes(4).toString('hex');
    const described = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
    this.log.write('error', `[${origin}] ${options.context ? `${options.context}: ` : ''}${described} (reference ${reference})`);
    if (options.show !== false) this.show({ origin, reference, message: error instanceof Error ? error.message : String(error) });
    return reference;
  }

  /** A report sent by a page; limited in rate, since a page is not trusted to be polite. */
  reportFromRenderer(report: ErrorReport): string | undefined {
    const now = this.now;
    if (now - this.windowStart >= 60_000) {
      if (this.dropped > 0) this.log.write('warn', `[renderer] ${this.dropped} more error reports were not logged (too many in a minute)`);
      this.windowStart = now;
      this.windowCount = 0;
      this.dropped = 0;
    }
    if (++this.windowCount > (this.options.rendererReportsPerMinute ?? 30)) {
      this.dropped++;
      return undefined;
    }
    const error = Object.assign(new Error(report.message), { stack: report.stack ? `${report.message}\n${report.stack}` : report.message });
    return this.report('renderer', error, { show: report.shown !== true, ...(report.source ? { context: report.source } : {}) });
  }

  private show(error: Omit<ShownError, 'unshown'>): void {
    if (this.presenting || this.now - this.lastShownAt < (this.options.quietMs ?? 60_000)) {
      this.unshown++;
      return;
    }
    this.presenting = true;
    const unshown = this.unshown;
    this.unshown = 0;
    this.options
      .present({ ...error, unshown })
      .catch((failure: unknown) => this.log.write('error', 'Could not show an error dialog:', failure))
      .finally(() => {
        this.presenting = false;
        this.lastShownAt = this.now;
      });
  }
}

const maxMessage = 2000;
const maxStack = 20_000;

/** An error report from the page: strings only, cut to size. */
export function parseErrorReport(payload: unknown): ErrorReport | { error: string } {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return { error: 'the report must be an object' };
  const p = payload as Record<string, unknown>;
  for (const key of Object.keys(p)) if (!['message', 'stack', 'source', 'shown'].includes(key)) return { error: `unknown key ${key}` };
  if (typeof p.message !== 'string' || p.message.length === 0) return { error: 'message must be a non-empty string' };
  if (p.stack !== undefined && typeof p.stack !== 'string') return { error: 'stack must be a string' };
  if (p.source !== undefined && typeof p.source !== 'string') return { error: 'source must be a string' };
  if (p.shown !== undefined && typeof p.shown !== 'boolean') return { error: 'shown must be true or false' };
  return {
    message: p.message.slice(0, maxMessage),
    ...(p.stack ? { stack: (p.stack as string).slice(0, maxStack) } : {}),
    ...(p.source ? { source: (p.source as string).slice(0, 200) } : {}),
    ...(p.shown !== undefined ? { shown: p.shown as boolean } : {}),
  };
}

/** Main's own uncaught errors: logged and shown instead of Electron's bare default dialog. */
export function catchProcessErrors(reporter: ErrorReporter, target: NodeJS.Process = process): () => void {
  const onException = (error: Error) => void reporter.report('main', error, { context: 'uncaught exception' });
  const onRejection = (reason: unknown) => void reporter.report('main', reason, { context: 'unhandled rejection' });
  target.on('uncaughtException', onException);
  target.on('unhandledRejection', onRejection);
  return () => {
    target.off('uncaughtException', onException);
    target.off('unhandledRejection', onRejection);
  };
}
