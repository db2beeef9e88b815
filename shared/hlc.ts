/**
 * Hybrid logical clocks (Kulkarni et al.): timestamps that follow wall time but never go
 * backwards and always move past any timestamp seen from another replica, so "later" means
 * the same thing on every replica. As text they sort correctly:
 *
 *   <13-digit milliseconds>-<4 hex counter>-<node id>
 *
 * Ties of time and counter are broken by node id, so two replicas never produce equal clocks.
 */
import { nowMs } from './clock.js';

export const zeroHlc = '0000000000000-0000-';

export interface HlcParts {
  millis: number;
  counter: number;
  node: string;
}

export function formatHlc({ millis, counter, node }: HlcParts): string {
  return `${String(millis).padStart(13, '0')}-${counter.toString(16).padStart(4, '0')}-${node}`;
}

/** A clock as text: `<millis>-<counter>-<node id>` (shown in the OpenAPI document for pushed clocks too). */
export const hlcPattern = /^(\d{13})-([0-9a-f]{4})-([A-Za-z0-9_.:-]{1,64})$/;

export function parseHlc(text: string): HlcParts | undefined {
  const m = hlcPattern.exec(text);
  return m ? { millis: Number(m[1]), counter: parseInt(m[2]!, 16), node: m[3]! } : undefined;
}

export function isHlc(value: unknown): value is string {
  // A test, not a parse: a snapshot checks hundreds of thousands of clocks.
  return typeof value === 'string' && hlcPattern.test(value);
}

/**
 * How far another replica's clock may run ahead of ours. A pushed change stamped further
 * ahead waits on its replica (docs/API.md "Sync"), so a wrong clock cannot win
 * last-writer-wins over everyone's edits for long; received clocks beyond it do not move ours.
 */
export const maxClockSkewMs = 5 * 60 * 1000;

export class HybridClock {
  private millis = 0;
  private counter = 0;

  constructor(
    readonly node: string,
    private readonly wallClock: () => number = nowMs,
  ) {}

  /** A new timestamp for a local event. */
  now(): string {
    const wall = this.wallClock();
    if (wall > this.millis) {
      this.millis = wall;
      this.counter = 0;
    } else {
      this.counter++;
    }
    if (this.counter > 0xffff) {
      this.millis++;
      this.counter = 0;
    }
    return formatHlc({ millis: this.millis, counter: this.counter, node: this.node });
  }

  /** Moves this clock past a timestamp received from another replica. */
  receive(remote: string): void {
    const parts = parseHlc(remote);
    if (!parts) return;
    if (parts.millis > this.wallClock() + maxClockSkewMs) return;
    if (parts.millis > this.millis || (parts.millis === this.millis && parts.counter > this.counter)) {
      this.millis = parts.millis;
      this.counter = parts.counter;
    }
  }
}
