import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '../../renderer/api/request-error.js';
import { UndoDropped, UndoManager, type CommandUndoer } from '../../renderer/state/undo.js';

/** A counter the steps change, and a log of what ran, as an API would see it. */
function counter() {
  const log: string[] = [];
  let value = 0;
  const step = (name: string, delta: number) => () => {
    log.push(name);
    value += delta;
  };
  return { log, step, value: () => value };
}

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
};

describe('UndoManager', () => {
  it('does an action at once and records it', async () => {
    const undo = new UndoManager();
    const c = counter();
    await undo.perform(c.step('+1', 1), c.step('-1', -1), 'Move Frame');
    expect(c.value()).toBe(1);
    expect(undo.getState()).toMatchObject({ canUndo: true, canRedo: false, undoDescription: 'Move Frame', busy: false });
  });

  it('undoes and redoes in order, answering what it did', async () => {
    const undo = new UndoManager();
    const c = counter();
    await undo.perform(c.step('a', 1), c.step('undo a', -1), 'A');
    await undo.perform(c.step('b', 10), c.step('undo b', -10), 'B');
    expect(await undo.undo()).toBe('B');
    expect(await undo.undo()).toBe('A');
    expect(await undo.undo()).toBeNull();
    expect(c.value()).toBe(0);
    expect(await undo.redo()).toBe('A');
    expect(c.value()).toBe(1);
    expect(undo.getState()).toMatchObject({ undoDescription: 'A', redoDescription: 'B' });
    expect(c.log).toEqual(['a', 'b', 'undo b', 'undo a', 'a']);
  });

  it('forgets what could be redone once a new action is done', async () => {
    const undo = new UndoManager();
    const c = counter();
    await undo.perform(c.step('a', 1), c.step('undo a', -1), 'A');
    await undo.undo();
    await undo.perform(c.step('b', 5), c.step('undo b', -5), 'B');
    expect(undo.getState().canRedo).toBe(false);
    expect(await undo.redo()).toBeNull();
    expect(undo.undoable()).toEqual(['B']);
  });

  it('keeps only the last `limit` actions', async () => {
    const undo = new UndoManager(3);
    for (const name of ['A', 'B', 'C', 'D', 'E'])
      await undo.perform(
        () => undefined,
        () => undefined,
        name,
      );
    expect(undo.undoable()).toEqual(['E', 'D', 'C']);
    await undo.undo();
    await undo.undo();
    await undo.undo();
    expect(await undo.undo()).toBeNull();
    expect(undo.redoable()).toEqual(['C', 'D', 'E']);
  });

  it('records nothing when the action fails, and hands over its error', async () => {
    const undo = new UndoManager();
    await expect(
      undo.perform(
        () => Promise.reject(new Error('end_date may not be before start_date')),
        () => undefined,
        'Resize Frame',
      ),
    ).rejects.toThrow('end_date may not be before start_date');
    expect(undo.getState()).toMatchObject({ canUndo: false, busy: false });
  });

  it('keeps an action undoable when its undo fails, and carries on after the failure', async () => {
    const undo = new UndoManager();
    let refuse = true;
    await undo.perform(
      () => undefined,
      () => (refuse ? Promise.reject(new Error('offline')) : undefined),
      'Plan Order 7',
    );
    await expect(undo.undo()).rejects.toThrow('offline');
    expect(undo.getState().undoDescription).toBe('Plan Order 7');
    refuse = false;
    expect(await undo.undo()).toBe('Plan Order 7');
  });

  it('keeps an undone action redoable when its redo fails', async () => {
    const undo = new UndoManager();
    let calls = 0;
    await undo.perform(
      () => (++calls === 2 ? Promise.reject(new Error('409')) : undefined),
      () => undefined,
      'Delete Frame',
    );
    await undo.undo();
    await expect(undo.redo()).rejects.toThrow('409');
    expect(undo.getState()).toMatchObject({ canUndo: false, canRedo: true });
  });

  it('runs steps one at a time in the order asked, even when called without waiting', async () => {
    const undo = new UndoManager();
    const log: string[] = [];
    const slow = deferred();
    const first = undo.perform(
      async () => {
        log.push('move start');
        await slow.promise;
        log.push('move end');
      },
      () => void log.push('undo move'),
      'Move',
    );
    const second = undo.undo();
    const third = undo.redo();
    expect(undo.getState().busy).toBe(true);
    slow.resolve();
    await Promise.all([first, second, third]);
    expect(log).toEqual(['move start', 'move end', 'undo move', 'move start', 'move end']);
    expect(undo.getState()).toMatchObject({ busy: false, canUndo: true, canRedo: false });
  });

  it('tells subscribers about every change, and stops when asked', async () => {
    const undo = new UndoManager();
    let calls = 0;
    const stop = undo.subscribe(() => calls++);
    const before = undo.getState();
    await undo.perform(
      () => undefined,
      () => undefined,
      'A',
    );
    expect(calls).toBeGreaterThan(0);
    expect(undo.getState()).not.toBe(before);
    const seen = calls;
    stop();
    await undo.undo();
    expect(calls).toBe(seen);
  });

  it('gives the same state object while nothing changes (for useSyncExternalStore)', () => {
    const undo = new UndoManager();
    expect(undo.getState()).toBe(undo.getState());
  });

  it('clears its history', async () => {
    const undo = new UndoManager();
    await undo.perform(
      () => undefined,
      () => undefined,
      'A',
    );
    undo.clear();
    expect(undo.getState()).toMatchObject({ canUndo: false, canRedo: false });
  });

  it('keeps a command as its id: undo undoes it on the server, redo undoes the undo', async () => {
    const undo = new UndoManager();
    const asked: string[] = [];
    let next = 0;
    // The server's undo as the API answers it: a new command each time.
    const server: CommandUndoer = (id) => {
      asked.push(id);
      return Promise.resolve(`undo-${++next}`);
    };
    await undo.performCommand(() => Promise.resolve('move-20'), 'Move 20 cards');
    expect(undo.getState()).toMatchObject({ canUndo: true, undoDescription: 'Move 20 cards' });
    expect(await undo.undo(server)).toBe('Move 20 cards');
    expect(await undo.redo(server)).toBe('Move 20 cards');
    expect(await undo.undo(server)).toBe('Move 20 cards');
    expect(asked).toEqual(['move-20', 'undo-1', 'undo-2']);
    expect(undo.getState()).toMatchObject({ canUndo: false, canRedo: true, redoDescription: 'Move 20 cards' });
  });

  it('records no command when it is refused', async () => {
    const undo = new UndoManager();
    await expect(undo.performCommand(() => Promise.reject(new ApiRequestError(422, null)), 'Move 2 cards')).rejects.toThrow();
    expect(undo.getState()).toMatchObject({ canUndo: false, canRedo: false });
  });

  it('records no step when the server kept no command (the action changed nothing), and keeps what could be redone', async () => {
    const undo = new UndoManager();
    await undo.performCommand(() => Promise.resolve('label'), 'Add label Rush to 3 cards');
    await undo.undo(() => Promise.resolve('undo-label'));
    await undo.performCommand(() => Promise.resolve(null), 'Add label Rush to 3 cards');
    expect(undo.getState()).toMatchObject({ canUndo: false, canRedo: true, redoDescription: 'Add label Rush to 3 cards' });
  });

  it('drops a command whose records changed since (409), keeps the steps before it, and writes nothing', async () => {
    const undo = new UndoManager();
    await undo.performCommand(() => Promise.resolve('label'), 'Add label Rush to 3 cards');
    await undo.performCommand(() => Promise.resolve('move'), 'Move 20 cards');
    const changedSince = new ApiRequestError(409, {
      reference: 'r1',
      errors: [{ code: 10409, message: 'Conflict', description: 'card c1 was changed since (start_date)', field: 'card.c1' }],
    });
    const asked: string[] = [];
    const server: CommandUndoer = (id) => {
      asked.push(id);
      return id === 'move' ? Promise.reject(changedSince) : Promise.resolve(`undo-${id}`);
    };
    const refused = await undo.undo(server).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UndoDropped);
    expect(refused).toMatchObject({ action: 'undo', description: 'Move 20 cards', alreadyUndone: false });
    expect(undo.undoable()).toEqual(['Add label Rush to 3 cards']);
    expect(undo.redoable()).toEqual([]);
    expect(await undo.undo(server)).toBe('Add label Rush to 3 cards');
    expect(asked).toEqual(['move', 'label']);
  });

  it('drops a redo the server refuses because it was done elsewhere already', async () => {
    const undo = new UndoManager();
    await undo.performCommand(() => Promise.resolve('edit'), 'Edit Frame');
    await undo.undo(() => Promise.resolve('undo-edit'));
    const undoneAlready = new ApiRequestError(409, {
      reference: 'r2',
      errors: [{ code: 10409, message: 'Conflict', description: 'This command was undone already.' }],
    });
    const refused = await undo.redo(() => Promise.reject(undoneAlready)).catch((error: unknown) => error);
    expect(refused).toMatchObject({ action: 'redo', alreadyUndone: true });
    expect(undo.getState()).toMatchObject({ canUndo: false, canRedo: false });
  });

  it('keeps a command when undo fails for another reason (offline)', async () => {
    const undo = new UndoManager();
    await undo.performCommand(() => Promise.resolve('move'), 'Move Frame');
    await expect(undo.undo(() => Promise.reject(new Error('offline')))).rejects.toThrow('offline');
    expect(undo.getState().undoDescription).toBe('Move Frame');
    await expect(undo.undo()).rejects.toThrow('needs the API');
  });

  it('shows a command undone before the server answers, and done again at once on redo (a frame, not a round trip)', async () => {
    const undo = new UndoManager();
    const shown: string[] = [];
    const shows = { undone: () => shown.push('undone'), done: () => shown.push('done') };
    await undo.performCommand(() => Promise.resolve({ commandId: 'move', shows }), 'Move Frame');
    const answer = deferred();
    const seenWhileWaiting: string[][] = [];
    const server: CommandUndoer = async (id) => {
      seenWhileWaiting.push([...shown]);
      await answer.promise;
      return `undo-${id}`;
    };
    const undoing = undo.undo(server);
    await Promise.resolve();
    await Promise.resolve();
    expect(shown, 'undone on screen before the server answers').toEqual(['undone']);
    answer.resolve();
    await undoing;
    expect(seenWhileWaiting).toEqual([['undone']]);
    await undo.redo(() => Promise.resolve('redo'));
    expect(shown).toEqual(['undone', 'done']);
  });

  it('shows a command done again when the server refuses its undo, and keeps it undoable when offline', async () => {
    const undo = new UndoManager();
    const shown: string[] = [];
    const shows = { undone: () => shown.push('undone'), done: () => shown.push('done') };
    await undo.performCommand(() => Promise.resolve({ commandId: 'move', shows }), 'Move Frame');
    await expect(undo.undo(() => Promise.reject(new Error('offline')))).rejects.toThrow('offline');
    expect(shown).toEqual(['undone', 'done']);
    expect(undo.getState().undoDescription).toBe('Move Frame');
    const changedSince = new ApiRequestError(409, {
      reference: 'r3',
      errors: [{ code: 10409, message: 'Conflict', description: 'card c1 was changed since (start_date)', field: 'card.c1' }],
    });
    await expect(undo.undo(() => Promise.reject(changedSince))).rejects.toBeInstanceOf(UndoDropped);
    expect(shown).toEqual(['undone', 'done', 'undone', 'done']);
  });

  it('refuses a limit below one', () => {
    expect(() => new UndoManager(0)).toThrow(RangeError);
  });
});
