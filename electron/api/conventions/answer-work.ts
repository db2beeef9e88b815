/**
 * The work of building one answer (docs/API.md "Relations", "Time limits"): how many records it
 * embeds through `with`, which may not pass the budget; the turns it gives other requests
 * between batches of that work; and its stop when nobody wants the answer any more (the client
 * went away, its time limit passed, the server is stopping).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { ApiError } from '../errors.js';

/**
 * The most records one answer may embed through `with`, each counted every time the answer
 * holds it: the JSON repeats a record wherever it is embedded. The app's own largest reads (a
 * page of 1,000 cards with their collection, stage, status, labels, resources and activities)
 * embed about a fifth of it.
 */
export const embeddedRecordBudget = 50_000;

/** An answer that has read more records than this gives other requests a turn between its batches. */
const yieldsAbove = 1_000;

const numbers = new Intl.NumberFormat('en-US');

/** What the answers of one request have counted so far; shared by the work inside and outside a transaction. */
interface Tally {
  /** Records in the answer: its own (a page, a record) and those it embeds. */
  records: number;
  /** Of those, the records embedded through `with`. */
  embedded: number;
}

export class AnswerWork {
  readonly #tally: Tally;

  /**
   * `signal`: aborted, with an ApiError as its reason, when the answer is no longer wanted.
   * `mayYield`: false inside a transaction, which awaits only its own reads and writes
   * (docs/architecture.md "The asynchronous store boundary").
   */
  constructor(
    readonly signal?: AbortSignal,
    private readonly mayYield = true,
    tally: Tally = { records: 0, embedded: 0 },
  ) {
    this.#tally = tally;
  }

  /** The same answer's work inside a transaction: it counts on, but neither yields nor stops halfway. */
  inTransaction(): AnswerWork {
    return new AnswerWork(undefined, false, this.#tally);
  }

  get records(): number {
    return this.#tally.records;
  }

  get embedded(): number {
    return this.#tally.embedded;
  }

  /** How many more records the answer may embed. */
  get room(): number {
    return embeddedRecordBudget - this.#tally.embedded;
  }

  /** Counts the answer's own records (a page, a record). */
  holds(count: number): void {
    this.#tally.records += count;
  }

  /**
   * Counts `count` more embedded records, the last level of `path` (`with=cards.resources`) among
   * them, and refuses the answer when that passes the budget. `atLeast`: the level was not read to
   * its end (it had more than the room left), so `count` is a lower bound.
   */
  embeds(count: number, path: string, atLeast = false): void {
    this.#tally.records += count;
    this.#tally.embedded += count;
    if (this.#tally.embedded <= embeddedRecordBudget) return;
    const figure = `${atLeast ? 'more than ' : ''}${numbers.format(this.#tally.embedded)}`;
    throw ApiError.badRequest(
      `with=${path} would embed ${figure} records in this answer (counting a record each time it appears); ` +
        `an answer may embed at most ${numbers.format(embeddedRecordBudget)}. Ask for fewer levels or relations, or a smaller page (limit).`,
    );
  }

  /**
   * Between two batches of work: when the answer is big (or `big` says the work is), other
   * requests get a turn of the event loop first. Throws the signal's reason when the answer is
   * no longer wanted.
   */
  async turn(big = false): Promise<void> {
    if (!this.mayYield) return;
    this.stopWhenUnwanted();
    if (!big && this.#tally.records <= yieldsAbove) return;
    await nextTurn();
    this.stopWhenUnwanted();
  }

  stopWhenUnwanted(): void {
    if (!this.signal?.aborted) return;
    const reason: unknown = this.signal.reason;
    throw reason instanceof ApiError ? reason : new ApiError('unavailable', [{ description: 'The request was stopped.' }]);
  }
}

/** The work of an answer a context does not carry (one built outside a request): counted, never yielding. */
export function answerWorkOf(ctx: { answer?: AnswerWork }): AnswerWork {
  return ctx.answer ?? new AnswerWork(undefined, false);
}
