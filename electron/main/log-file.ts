/**
 * The app's log, in Electron's log folder (`app.getPath('logs')`): `main.log`, rotated by
 * size into `main.1.log` … so a planner's disk never fills and a support request can attach
 * the last few files. Lines are appended synchronously: a crash right after an error must not
 * lose the line that explains it.
 */
import { appendFileSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { formatWithOptions } from 'node:util';
import { nowDate } from '../../shared/clock.js';
import { ownerOnlyFolderMode } from '../store/owner-only.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface RotatingLogOptions {
  /** Size at which the current file is rotated. */
  maxBytes?: number;
  /** Files kept in all, the current one included. */
  keep?: number;
  now?: () => Date;
}

export class RotatingLog {
  readonly path: string;
  private size: number;
  private readonly maxBytes: number;
  private readonly keep: number;
  private readonly now: () => Date;

  constructor(
    readonly dir: string,
    private readonly name = 'main',
    options: RotatingLogOptions = {},
  ) {
    this.maxBytes = options.maxBytes ?? 1024 * 1024;
    this.keep = Math.max(1, options.keep ?? 5);
    this.now = options.now ?? (() => nowDate());
    // The log tells what the planner did and what failed: for them only (0700, as the data folder).
    mkdirSync(dir, { recursive: true, mode: ownerOnlyFolderMode });
    this.path = this.fileOf(0);
    try {
      this.size = statSync(this.path).size;
    } catch {
      this.size = 0;
    }
  }

  fileOf(index: number): string {
    return join(this.dir, index === 0 ? `${this.name}.log` : `${this.name}.${index}.log`);
  }

  write(level: LogLevel, ...parts: unknown[]): void {
    let line = `${this.now().toISOString()} ${level.toUpperCase().padEnd(5)} ${formatWithOptions({ depth: 4, colors: false }, ...parts)}\n`;
    // One enormous line (a dumped payload) must not defeat the size limit.
    if (Buffer.byteLength(line) > this.maxBytes) line = `${line.slice(0, Math.floor(this.maxBytes / 4))} … (cut)\n`;
    const bytes = Buffer.byteLength(line);
    try {
      if (this.size > 0 && this.size + bytes > this.maxBytes) this.rotate();
      appendFileSync(this.path, line, { mode: 0o600 });
      this.size += bytes;
    } catch {
      // A log that cannot be written (disk full, folder gone) must not take the app down.
    }
  }

  private rotate(): void {
    rmSync(this.fileOf(this.keep - 1), { force: true });
    for (let i = this.keep - 2; i >= 0; i--) {
      try {
        renameSync(this.fileOf(i), this.fileOf(i + 1));
      } catch {
        // A gap in the numbering (deleted by hand) is fine.
      }
    }
    this.size = 0;
  }
}

/**
 * Sends everything written to the console into the log as well; the existing
 * `console.error(…)` calls across main and the backend then end up in the file a planner can
 * send. Returns a function that restores the console.
 */
export function captureConsole(log: RotatingLog, target: Console = console): () => void {
  const levels: [keyof Console & ('debug' | 'log' | 'info' | 'warn' | 'error'), LogLevel][] = [
    ['debug', 'debug'],
    ['log', 'info'],
    ['info', 'info'],
    ['warn', 'warn'],
    ['error', 'error'],
  ];
  const originals = levels.map(([method]) => [method, target[method]] as const);
  for (const [method, level] of levels) {
    const original = target[method].bind(target);
    target[method] = (...parts: unknown[]) => {
      log.write(level, ...parts);
      original(...parts);
    };
  }
  return () => {
    for (const [method, original] of originals) target[method] = original;
  };
}
