import { describe, expect, it } from 'vitest';
import { statusSteps } from '../../renderer/views/card/status-steps.js';

const status = (id: string, priority: number, exit = false) => ({ id, name: id, priority, exit });
// Deliberately out of order: stepping follows priority, not the order received.
const statuses = [status('review', 2), status('todo', 0), status('done', 3, true), status('doing', 1)];

describe('status step-through', () => {
  it('orders the statuses by priority', () => {
    expect(statusSteps(statuses, null).ordered.map((s) => s.id)).toEqual(['todo', 'doing', 'review', 'done']);
  });

  it('offers the statuses before and after the current one', () => {
    const steps = statusSteps(statuses, 'doing');
    expect(steps.index).toBe(1);
    expect(steps.previous?.id).toBe('todo');
    expect(steps.next?.id).toBe('review');
    expect(steps.done).toBe(false);
  });

  it('has no previous status at the first, and no next one at the last', () => {
    expect(statusSteps(statuses, 'todo').previous).toBeNull();
    expect(statusSteps(statuses, 'done').next).toBeNull();
  });

  it('reads a card in an exit status as done', () => {
    expect(statusSteps(statuses, 'done').done).toBe(true);
    expect(statusSteps(statuses, 'review').done).toBe(false);
  });

  it('offers the first status to a card with none, or with one the board no longer has', () => {
    for (const current of [null, 'deleted-status']) {
      const steps = statusSteps(statuses, current);
      expect(steps.current).toBeNull();
      expect(steps.index).toBe(-1);
      expect(steps.previous).toBeNull();
      expect(steps.next?.id).toBe('todo');
      expect(steps.done).toBe(false);
    }
  });

  it('keeps the order they came in for statuses of equal priority', () => {
    const tied = [status('b', 0), status('a', 0), status('c', 0)];
    expect(statusSteps(tied, 'a').ordered.map((s) => s.id)).toEqual(['b', 'a', 'c']);
    expect(statusSteps(tied, 'a').next?.id).toBe('c');
  });

  it('offers nothing on a board without statuses', () => {
    expect(statusSteps([], null)).toMatchObject({ ordered: [], previous: null, next: null, done: false });
  });
});
