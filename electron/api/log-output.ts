/**
 * Where request logging (`--log`) writes: standard output, in a way that never stops the
 * service. pino's own destination writes synchronously and retries a failed write for ever
 * (sonic-boom's Atomics.wait), so a full disk or a pipe nobody reads hung every request, and
 * SIGTERM with them. Here:
 *
 * - to a regular file each line is written at once: a full disk or a size limit answers with
 *   an error (ENOSPC, EFBIG) instead of making anyone wait;
 * - to a pipe, socket or terminal, Node's stream writes in the background, and at most
 *   `maxPendingBytes` wait there for a reader;
 * - a line that cannot be written, or does not fit, is dropped and counted. The first drop
 *   says so once on standard error; once lines get through again, the log tells how many
 *   were lost. Nothing here throws.
 */
import { fstatSync, writeSync } from 'node:fs';
import { nowMs } from '../../shared/clock.js';

type OutputStream = NodeJS.WritableStream & {
  writableLength: number;
  destroyed: boolean;
  on(event: 'error', listener: (error: Error) => void): unknown;
};

export interface LogOutputOptions {
  /** The descriptor (default 1) and its stream (default process.stdout). */
  fd?: number;
  stream?: OutputStream;
  /** Bytes that may wait for a slow pipe before lines are dropped (default 256 KiB). */
  maxPendingBytes?: number;
  /** Tells that lines are being dropped (default: one line on standard error). */
  report?: (message: string) => void;
}

export class LogOutput {
  private readonly fd: number;
  private readonly stream: OutputStream;
  private readonly toFile: boolean;
  private readonly maxPendingBytes: number;
  private readonly report: (message: string) => void;
  private broken: string | undefined;
  private dropped = 0;
  private dropReason = '';

  constructor(options: LogOutputOptions = {}) {
    this.fd = options.fd ?? 1;
    this.stream = options.stream ?? process.stdout;
    this.maxPendingBytes = options.maxPendingBytes ?? 256 * 1024;
    this.report = options.report ?? reportOnStandardError;
    let toFile = false;
    try {
      toFile = fstatSync(this.fd).isFile();
    } catch (error) {
      this.broken = describe(error);
    }
    this.toFile = toFile;
    // Without a listener a failed pipe (EPIPE) would end the process.
    if (!toFile) this.stream.on('error', (error) => (this.broken = describe(error)));
  }

  /** pino's destination interface: one JSON line per call. */
  write(line: string): void {
    const problem = this.put(line);
    if (problem) {
      if (this.dropped === 0) {
        this.dropReason = problem;
        this.report(`Request log: cannot write to standard output (${problem}); log lines are dropped until it can be written again.`);
      }
      this.dropped++;
      return;
    }
    if (this.dropped > 0) {
      const count = this.dropped;
      this.dropped = 0;
      this.put(
        `${JSON.stringify({ level: 40, time: nowMs(), pid: process.pid, msg: `${count} log lines were dropped (${this.dropReason})` })}\n`,
      );
    }
  }

  /** Writes or queues the line; says why not when it cannot. */
  private put(line: string): string | undefined {
    if (this.toFile) {
      try {
        const bytes = Buffer.from(line);
        for (let at = 0; at < bytes.length;) {
          const written = writeSync(this.fd, bytes, at);
          if (written <= 0) return 'nothing was written';
          at += written;
        }
        return undefined;
      } catch (error) {
        return describe(error);
      }
    }
    if (this.broken || this.stream.destroyed) return this.broken ?? 'the stream was closed';
    // Once dropping, it waits until the reader has taken everything, so a slow reader does not
    // turn into a notice every few lines.
    const pending = this.stream.writableLength;
    if (pending + line.length > this.maxPendingBytes || (this.dropped > 0 && pending > 0)) return 'nobody reads it';
    try {
      this.stream.write(line);
      return undefined;
    } catch (error) {
      return describe(error);
    }
  }
}

let standardOutput: LogOutput | undefined;

/** The process's one log output on standard output, made on first use. */
export function standardOutputLog(): LogOutput {
  standardOutput ??= new LogOutput();
  return standardOutput;
}

function describe(error: unknown): string {
  // Anything thrown, read as a Node error: code is undefined where it has none.
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return code && !message.startsWith(code) ? `${code}: ${message}` : message;
}

/** Best effort and never blocking: standard error may be the same full pipe or disk. */
function reportOnStandardError(message: string): void {
  try {
    if (fstatSync(2).isFile()) writeSync(2, `${message}\n`);
    else if (process.stderr.writableLength < 64 * 1024) process.stderr.write(`${message}\n`);
  } catch {
    // Nowhere left to say it.
  }
}
