/**
 * Undo and redo for what a planner does to the plan: moves, edits, planning and unplanning,
 * deletes. Each action is recorded as a pair of steps that talk to the API — `redo` does it,
 * `undo` takes it back — so undo works the same whoever else changed the board meanwhile.
 *
 * Steps run one at a time, in the order asked: pressing Ctrl+Z three times quickly undoes
 * three actions, each after the previous one has landed. A step that fails leaves the history
 * where it was (the action stays undoable, or redoable) and its error goes to the caller.
 *
 * Steps must not call `perform` themselves: they would wait for their own turn forever.
 */
import { useSyncExternalStore } from 'react';

export type UndoStep = () => unknown;

export interface UndoEntry {
  description: string;
  redo: UndoStep;
  undo: UndoStep;
}

export interface UndoState {
  canUndo: boolean;
  canRedo: boolean;
  /** What Ctrl+Z would take back, e.g. "Move card Frame". */
  undoDescription: string | null;
  redoDescription: string | null;
  /** A step is running or waiting. */
  busy: boolean;
}

export class UndoManager {
  private entries: UndoEntry[] = [];
  /** Index of the last entry that is done; -1 when everything is undone. */
  private index = -1;
  private queue: Promise<unknown> = Promise.resolve();
  private pending = 0;
  private readonly listeners = new Set<() => void>();
  private state: UndoState = this.computeState();

  /** `limit`: how many actions can be undone; older ones are forgotten. */
  constructor(readonly limit = 100) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError('limit must be a whole number of at least 1');
  }

  /**
   * Does an action now and records it. When `redo` fails nothing is recorded. Recording drops
   * what could be redone: after a new action, the undone ones are gone.
   */
  perform(redo: UndoStep, undo: UndoStep, description: string): Promise<void> {
    return this.enqueue(async () => {
      await redo();
      this.entries.splice(this.index + 1, Infinity, { description, redo, undo });
      if (this.entries.length > this.limit) this.entries.splice(0, this.entries.length - this.limit);
      this.index = this.entries.length - 1;
    });
  }

  /** Takes back the last action. Resolves with its description, or null when there was none. */
  undo(): Promise<string | null> {
    return this.enqueue(async () => {
      const entry = this.entries[this.index];
      if (!entry) return null;
      await entry.undo();
      this.index--;
      return entry.description;
    });
  }

  /** Does the last undone action again. Resolves with its description, or null when there was none. */
  redo(): Promise<string | null> {
    return this.enqueue(async () => {
      const entry = this.entries[this.index + 1];
      if (!entry) return null;
      await entry.redo();
      this.index++;
      return entry.description;
    });
  }

  /** Forgets everything (waiting steps still run). */
  clear(): void {
    this.entries = [];
    this.index = -1;
    this.changed();
  }

  getState(): UndoState {
    return this.state;
  }

  /** Descriptions of what can be undone, most recent first; for a history menu or a test. */
  undoable(): string[] {
    return this.entries.slice(0, this.index + 1).map((entry) => entry.description).reverse();
  }

  redoable(): string[] {
    return this.entries.slice(this.index + 1).map((entry) => entry.description);
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  private enqueue<T>(run: () => Promise<T>): Promise<T> {
    this.pending++;
    this.changed();
    const result = this.queue.then(run);
    const settle = () => {
      this.pending--;
      this.changed();
    };
    // The queue itself never rejects, so one failed step does not stop the ones after it.
    this.queue = result.then(settle, settle);
    return result;
  }

  private computeState(): UndoState {
    const undoEntry = this.entries[this.index];
    const redoEntry = this.entries[this.index + 1];
    return {
      canUndo: undoEntry !== undefined,
      canRedo: redoEntry !== undefined,
      undoDescription: undoEntry?.description ?? null,
      redoDescription: redoEntry?.description ?? null,
      busy: this.pending > 0,
    };
  }

  private changed(): void {
    this.state = this.computeState();
    for (const listener of this.listeners) listener();
  }
}

/** The app's one history: a move on the planboard and an edit in the card panel undo in one order. */
export const undoManager = new UndoManager(100);

export function useUndoState(manager: UndoManager = undoManager): UndoState {
  return useSyncExternalStore(
    (listener) => manager.subscribe(listener),
    () => manager.getState(),
  );
}
