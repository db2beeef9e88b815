/**
 * The record of unexpected errors (500s): `logs/errors.log` in the data folder, written whether
 * or not request logging (`--log`) is on. A 500's body asks the planner to quote its reference
 * (docs/API.md, "Errors"); this file is where that reference leads.
 *
 * One entry per 500: time, reference, method, path, the names of the query parameters (never
 * their values, bodies or headers, which may hold keys and personal data), the environment, and
 * the error with its stack. Appends are asynchronous and queued, and a write that fails (disk
 * full, folder gone) loses the entry, never the request. Files rotate by size (errors.1.log,
 * errors.2.log), so a loop of 500s cannot fill the disk.
 */
import { appendFile, mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { nowDate } from '../../shared/clock.js';
import { ownerOnlyFolderMode } from '../store/owner-only.js';

export interface FailureEntry {
  reference: string;
  method: string;
  url: string;
  environment?: string | undefined;
  error: unknown;
}

export interface FailureLogOptions {
  /** Size at which errors.log is rotated (default 1 MiB). */
  maxBytes?: number;
  /** Files kept in all, errors.log included (default 3). */
  keep?: number;
  /** Entries waiting to be written; beyond that they are counted and dropped (default 100). */
  maxQueued?: number;
}

/** One entry at most this long: a stack of a deep recursion must not defeat the rotation. */
const maxEntryChars = 16 * 1024;

export class FailureLog {
  private readonly maxBytes: number;
  private readonly keep: number;
  private readonly maxQueued: number;
  private readonly queue: string[] = [];
  private dropped = 0;
  private size: number | undefined;
  private writing: Promise<void> | undefined;

  constructor(
    readonly dir: string,
    options: FailureLogOptions = {},
  ) {
    this.maxBytes = options.maxBytes ?? 1024 * 1024;
    this.keep = Math.max(1, options.keep ?? 3);
    this.maxQueued = options.maxQueued ?? 100;
  }

  fileOf(index: number): string {
    return join(this.dir, index === 0 ? 'errors.log' : `errors.${index}.log`);
  }

  /** Queues one entry; returns at once and never throws. */
  record(entry: FailureEntry): void {
    try {
      if (this.queue.length >= this.maxQueued) {
        this.dropped++;
        return;
      }
      this.queue.push(format(entry));
      this.startWriting();
    } catch {
      // Recording a failure must never become a second one.
    }
  }

  /** Resolves once every entry recorded so far is written or given up (closing, tests). */
  async flushed(): Promise<void> {
    while (this.writing) await this.writing;
  }

  private startWriting(): void {
    if (this.writing) return;
    this.writing = this.drain().finally(() => {
      this.writing = undefined;
      // An entry queued between the last write and this line.
      if (this.queue.length > 0) this.startWriting();
    });
  }

  private async drain(): Promise<void> {
    for (let text = this.queue.shift(); text !== undefined; text = this.queue.shift()) {
      if (this.dropped > 0) {
        text = `${nowDate().toISOString()} ${this.dropped} earlier entries were dropped: too many at once\n${text}`;
        this.dropped = 0;
      }
      try {
        await this.append(text);
      } catch {
        // Disk full, folder removed or read-only: this entry is lost, the API carries on.
        this.size = undefined;
      }
    }
  }

  private async append(text: string): Promise<void> {
    if (this.size === undefined) {
      // The log names what failed where: for the data folder's owner only (store/owner-only.ts).
      await mkdir(this.dir, { recursive: true, mode: ownerOnlyFolderMode });
      this.size = await stat(this.fileOf(0)).then(
        (info) => info.size,
        () => 0,
      );
    }
    const bytes = Buffer.byteLength(text);
    if (this.size > 0 && this.size + bytes > this.maxBytes) await this.rotate();
    await appendFile(this.fileOf(0), text, { mode: 0o600 });
    this.size += bytes;
  }

  private async rotate(): Promise<void> {
    await rm(this.fileOf(this.keep - 1), { force: true });
    for (let i = this.keep - 2; i >= 0; i--) {
      // A file missing from the numbering (removed by hand) is fine.
      await rename(this.fileOf(i), this.fileOf(i + 1)).catch(() => undefined);
    }
    this.size = 0;
  }
}

function format(entry: FailureEntry): string {
  const [path, query] = splitUrl(entry.url);
  const names = query ? [...new URLSearchParams(query).keys()] : [];
  const where = `${entry.method} ${path}${names.length > 0 ? `?${[...new Set(names)].join('&')}` : ''}`;
  const error = entry.error;
  const detail = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
  const environment = entry.environment ? ` env=${entry.environment}` : '';
  let text = `${nowDate().toISOString()} 500 reference=${entry.reference} ${where}${environment}\n${indent(detail)}\n`;
  if (text.length > maxEntryChars) text = `${text.slice(0, maxEntryChars)} … (cut)\n`;
  return text;
}

function splitUrl(url: string): [string, string] {
  const at = url.indexOf('?');
  return at === -1 ? [url, ''] : [url.slice(0, at), url.slice(at + 1)];
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}
