import { describe, expect, it } from 'vitest';
import { UndoManager } from '../../renderer/state/undo.js';

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
    for (const name of ['A', 'B', 'C', 'D', 'E']) await undo.perform(() => undefined, () => undefined, name);
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
    await undo.perform(() => undefined, () => (refuse ? Promise.reject(new Error('offline')) : undefined), 'Plan Order 7');
    await expect(undo.undo()).rejects.toThrow('offline');
    expect(undo.getState().undoDescription).toBe('Plan Order 7');
    refuse = false;
    expect(await undo.undo()).toBe('Plan Order 7');
  });

  it('keeps an undone action redoable when its redo fails', async () => {
    const undo = new UndoManager();
    let calls = 0;
    await undo.perform(() => (++calls === 2 ? Promise.reject(new Error('409')) : undefined), () => undefined, 'Delete Frame');
    await undo.undo();
    await expect(undo.redo()).rejects.toThrow('409');
    expect(undo.getState()).toMatchObject({ canUndo: false, canRedo: true });
  });

  it('runs steps one at a time in the order asked, even when called without waiting', async () => {
    const undo = new UndoManager();
    const log: string[] = [];
    const slow = deferred();
    const first = undo.perform(async () => {
      log.push('move start');
      await slow.promise;
      log.push('move end');
    }, () => void log.push('undo move'), 'Move');
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
    await undo.perform(() => undefined, () => undefined, 'A');
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
    await undo.perform(() => undefined, () => undefined, 'A');
    undo.clear();
    expect(undo.getState()).toMatchObject({ canUndo: false, canRedo: false });
  });

  it('refuses a limit below one', () => {
    expect(() => new UndoManager(0)).toThrow(RangeError);
  });
});
