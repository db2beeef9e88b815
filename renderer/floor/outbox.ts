/**
 * The floor's outbox (docs/API.md "The floor"): every tap is kept on the device (IndexedDB)
 * before it is sent, and sent in the order it was made, one at a time, when the server can be
 * reached. Each carries the command id and tap time it was made with, so one sent twice (an
 * answer lost on the way) is applied once. An action the server refuses (the job was finished by
 * someone else, moved to another person) leaves the outbox and is shown as refused, never dropped
 * in silence.
 */
import type { Operation } from '../../shared/operation.js';
import { floorFinishOperation, floorPauseOperation, floorQuantitiesOperation, floorStartOperation } from '../../shared/operations/floor.js';
import { callOperation } from '../api/commands.js';
import { ApiRequestError, describeError } from '../api/request-error.js';
import type { Transport } from '../api/transport-types.js';

export type FloorActionKind = 'start' | 'pause' | 'finish' | 'quantities';

const operations: Record<FloorActionKind, Operation> = {
  start: floorStartOperation,
  pause: floorPauseOperation,
  finish: floorFinishOperation,
  quantities: floorQuantitiesOperation,
};

export interface WaitingAction {
  /** The outbox's own order (IndexedDB's key generator): the order the taps were made in. */
  seq?: number;
  kind: FloorActionKind;
  /** The operator who tapped (session.ts userOf): only their sign-in sends it. */
  user: string;
  /** The job's name, to say which one a refusal is about. */
  job: string;
  body: { card_id: string; at: string; command_id: string } & Record<string, unknown>;
}

export interface Refusal {
  job: string;
  kind: FloorActionKind;
  message: string;
}

const dbName = 'planner-floor';
const storeName = 'outbox';

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((done, fail) => {
    req.onsuccess = () => done(req.result);
    req.onerror = () => fail(req.error ?? new Error('IndexedDB refused the request.'));
  });
}

function openDb(): Promise<IDBDatabase> {
  const open = indexedDB.open(dbName, 1);
  open.onupgradeneeded = () => open.result.createObjectStore(storeName, { keyPath: 'seq', autoIncrement: true });
  return request(open);
}

/** Whether a refusal is the server's last word on the action (else it is sent again later). */
function isFinal(error: unknown): boolean {
  return error instanceof ApiRequestError && error.status >= 400 && error.status < 500 && ![401, 408, 429].includes(error.status);
}

export class Outbox {
  private db: Promise<IDBDatabase> | undefined;
  private sending = false;
  private listeners = new Set<() => void>();
  waiting = 0;
  refusals: Refusal[] = [];

  private store(mode: IDBTransactionMode): Promise<IDBObjectStore> {
    this.db ??= openDb();
    return this.db.then((db) => db.transaction(storeName, mode).objectStore(storeName));
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }

  /** What `user` tapped and is waiting, oldest first. */
  private async all(user: string): Promise<WaitingAction[]> {
    // The store holds only what `add` put there.
    const actions = (await request((await this.store('readonly')).getAll())) as WaitingAction[];
    return actions.filter((action) => action.user === user);
  }

  async count(user: string): Promise<number> {
    this.waiting = (await this.all(user)).length;
    this.changed();
    return this.waiting;
  }

  /** Keeps the action on the device, then tries to send what waits. */
  async add(action: WaitingAction, transport: Transport): Promise<void> {
    await request((await this.store('readwrite')).add(action));
    await this.count(action.user);
    await this.send(transport, action.user);
  }

  /**
   * Sends what waits, oldest first, one at a time; stops at the first that cannot be sent now
   * (no connection, the server busy or failing), to go on from there next time.
   */
  async send(transport: Transport, user: string): Promise<void> {
    if (this.sending) return;
    this.sending = true;
    try {
      for (const action of await this.all(user)) {
        try {
          await callOperation(transport, operations[action.kind], { body: action.body });
        } catch (error) {
          if (!isFinal(error)) break;
          this.refusals = [...this.refusals, { job: action.job, kind: action.kind, message: describeError(error) }];
        }
        await request((await this.store('readwrite')).delete(action.seq!));
        await this.count(user);
      }
    } finally {
      this.sending = false;
      await this.count(user);
    }
  }

  dismissRefusals(): void {
    this.refusals = [];
    this.changed();
  }
}
