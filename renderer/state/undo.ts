/**
 * Undo and redo for what a planner does to the plan: moves, edits, planning and unplanning,
 * deletes. An action the server keeps as a command (docs/API.md "Commands and undo": moves,
 * labels, assignments, card edits, planning and unplanning) is recorded as its command id and
 * description, and how the screen shows it done and undone: undo shows the undone state at once
 * and asks the server to undo that command, and redo undoes the undo. The server refuses (409)
 * when someone changed those records since; then the screen goes back, the step is dropped and
 * nothing is written. Actions that are several commands (deleting several cards) are recorded
 * as a pair of steps that talk to the API — `redo` does it, `undo` takes it back.
 *
 * Steps run one at a time, in the order asked: pressing Ctrl+Z three times quickly undoes
 * three actions, each after the previous one has landed. A step that fails leaves the history
 * where it was (the action stays undoable, or redoable) and its error goes to the caller.
 *
 * Steps must not call `perform` themselves: they would wait for their own turn forever.
 */
import { useSyncExternalStore } from 'react';
import { ApiRequestError } from '../api/request-error.js';

export type UndoStep = () => unknown;

/** Undoes a command on the server; answers the id of the undo's own command (which redo undoes). */
export type CommandUndoer = (commandId: string) => Promise<string>;

/**
 * How the screen shows a command done and undone, at once: undo and redo change what is shown
 * in the same frame as the key press, as a drag does, and go back if the server refuses.
 */
export interface CommandView {
  undone(): void;
  done(): void;
}

/** An action the server keeps as a command: its id is all undo needs (and how to show it). */
export interface CommandEntry {
  description: string;
  commandId: string;
  shows?: CommandView;
}

/** What a command action answers: its command id (null: it changed nothing), and how to show it. */
export type CommandDone = string | null | { commandId: string | null; shows: CommandView };

/** An action the server does not undo yet, with the steps that do and take it back. */
export interface StepsEntry {
  description: string;
  redo: UndoStep;
  undo: UndoStep;
}

export type UndoEntry = CommandEntry | StepsEntry;

/**
 * Undo or redo refused because the records changed since, or the command was undone already
 * (from another window): the step is gone from the history and nothing was written.
 */
export class UndoDropped extends Error {
  constructor(
    readonly action: 'undo' | 'redo',
    readonly description: string,
    /** True when the command was undone already; false when its records changed since. */
    readonly alreadyUndone: boolean,
    readonly refusal: ApiRequestError,
  ) {
    super(`${action} of "${description}" was refused: ${refusal.message}`);
    this.name = 'UndoDropped';
  }
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
      this.record({ description, redo, undo });
    });
  }

  /**
   * Does an action that is one server command and records its id (`run` answers it). When
   * `run` fails nothing is recorded, nor when it answers no command: the server kept none,
   * because the action changed nothing, so there is nothing to undo.
   */
  performCommand(run: () => Promise<CommandDone>, description: string): Promise<void> {
    return this.enqueue(async () => {
      const done = await run();
      const { commandId, shows } = typeof done === 'object' && done !== null ? done : { commandId: done, shows: undefined };
      if (commandId !== null) this.record({ description, commandId, ...(shows ? { shows } : {}) });
    });
  }

  /**
   * Takes back the last action. Resolves with its description, or null when there was none.
   * A command is undone by `undoCommand`; a 409 drops the step and rejects with `UndoDropped`.
   */
  undo(undoCommand?: CommandUndoer): Promise<string | null> {
    return this.enqueue(async () => {
      const entry = this.entries[this.index];
      if (!entry) return null;
      await this.run(entry, 'undo', this.index, undoCommand);
      this.index--;
      return entry.description;
    });
  }

  /** Does the last undone action again. Resolves with its description, or null when there was none. */
  redo(undoCommand?: CommandUndoer): Promise<string | null> {
    return this.enqueue(async () => {
      const entry = this.entries[this.index + 1];
      if (!entry) return null;
      await this.run(entry, 'redo', this.index + 1, undoCommand);
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
    return this.entries
      .slice(0, this.index + 1)
      .map((entry) => entry.description)
      .reverse();
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

  private record(entry: UndoEntry): void {
    this.entries.splice(this.index + 1, Infinity, entry);
    if (this.entries.length > this.limit) this.entries.splice(0, this.entries.length - this.limit);
    this.index = this.entries.length - 1;
  }

  private async run(entry: UndoEntry, action: 'undo' | 'redo', at: number, undoCommand: CommandUndoer | undefined): Promise<void> {
    if (!('commandId' in entry)) {
      await (action === 'undo' ? entry.undo() : entry.redo());
      return;
    }
    if (!undoCommand) throw new Error(`"${entry.description}" is a server command: ${action} needs the API.`);
    // Shown before the server answers; put back when it refuses.
    (action === 'undo' ? entry.shows?.undone : entry.shows?.done)?.();
    try {
      // Undo and redo are both the undo of the last command: redo undoes the undo.
      entry.commandId = await undoCommand(entry.commandId);
    } catch (error) {
      (action === 'undo' ? entry.shows?.done : entry.shows?.undone)?.();
      if (error instanceof ApiRequestError && error.status === 409) {
        // Someone changed those records since (or undid it elsewhere): this step can never
        // land, so it leaves the history; the ones before it stay undoable.
        this.entries.splice(at, 1);
        if (action === 'undo') this.index--;
        const alreadyUndone = !error.items.some((problem) => problem.field);
        throw new UndoDropped(action, entry.description, alreadyUndone, error);
      }
      throw error;
    }
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
