/**
 * The Readable a report writer fills from an async loop (XLSX and PDF; CSV is a plain
 * generator-backed stream and needs none of this).
 *
 * The writer calls `await output.ready()` at its natural break points (every page, every few
 * hundred rows). While the reader keeps up it resolves at once, yielding to the event loop
 * every few milliseconds so that one big export does not stall the API's other requests.
 * While the reader's buffer is full (a slow download) it waits until the reader asks for
 * more, so the file never piles up in memory. It resolves `false` once the reader has gone
 * away (the request was aborted): the writer then stops.
 *
 * `fail(error)` destroys the stream with the error, which is how a writer reports one: the
 * response is already under way, so all the API can do is cut it off.
 */
import { Readable } from 'node:stream';

const yieldEveryMs = 15;

export class ReportStream extends Readable {
  #wake: (() => void) | null = null;
  #full = false;
  #lastYield = performance.now();

  constructor() {
    super({ highWaterMark: 1 << 20 });
    this.once('close', () => this.#resume());
  }

  override _read(): void {
    this.#full = false;
    this.#resume();
  }

  /** Hands a chunk of the file to the reader. */
  send(chunk: Buffer | Uint8Array): void {
    if (!this.destroyed && !this.push(chunk)) this.#full = true;
  }

  /** The file is complete. */
  finish(): void {
    if (!this.destroyed) this.push(null);
  }

  fail(error: unknown): void {
    this.destroy(error instanceof Error ? error : new Error(String(error)));
  }

  /** Resolves when the writer may go on; false when the reader has gone away. */
  async ready(): Promise<boolean> {
    if (this.destroyed) return false;
    if (this.#full) {
      await new Promise<void>((resolve) => (this.#wake = resolve));
    } else if (performance.now() - this.#lastYield > yieldEveryMs) {
      await new Promise<void>((resolve) => setImmediate(resolve));
    } else {
      return true;
    }
    this.#lastYield = performance.now();
    return !this.destroyed;
  }

  #resume(): void {
    const wake = this.#wake;
    this.#wake = null;
    wake?.();
  }
}
