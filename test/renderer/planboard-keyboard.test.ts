import { describe, expect, it } from 'vitest';
import {
  clickCard,
  emptyNavState,
  planboardKey,
  type NavCard,
  type NavContext,
  type NavKey,
  type NavState,
} from '../../renderer/views/planboard/keyboard.js';

/**
 * Two stages. Stage 0 has two lanes: A (days 10–12) and B (15–15) on lane 0, C (11–13) on
 * lane 1. Stage 1 has one lane: D (12–14).
 */
const cards: NavCard[] = [
  { id: 'A', stage: 0, lane: 0, first: 10, last: 12 },
  { id: 'B', stage: 0, lane: 0, first: 15, last: 15 },
  { id: 'C', stage: 0, lane: 1, first: 11, last: 13 },
  { id: 'D', stage: 1, lane: 0, first: 12, last: 14 },
];
const ctx: NavContext = { cards, lanesPerStage: [2, 1], days: 100, startDay: 9 };

function press(state: NavState, ...keys: (string | NavKey)[]) {
  let result = { state, command: null as ReturnType<typeof planboardKey>['command'], handled: false };
  for (const key of keys) result = planboardKey(result.state, typeof key === 'string' ? { key } : key, ctx);
  return result;
}

const at = (stage: number, lane: number, day: number, selected: string[] = []): NavState => ({
  ...emptyNavState,
  cursor: { stage, lane, day },
  selected,
});

describe('arrows move the selection cell by cell, card by card', () => {
  it('starts on the first card in view when nothing is selected', () => {
    const { state, handled } = press(emptyNavState, 'ArrowRight');
    expect(handled).toBe(true);
    expect(state.cursor).toEqual({ stage: 0, lane: 0, day: 10 });
    expect(state.selected).toEqual(['A']);
  });

  it('jumps from a card to the cell after it, then walks empty days one at a time', () => {
    const from = at(0, 0, 10, ['A']);
    const one = press(from, 'ArrowRight');
    expect(one.state.cursor).toEqual({ stage: 0, lane: 0, day: 13 });
    expect(one.state.selected).toEqual([]);
    const three = press(from, 'ArrowRight', 'ArrowRight', 'ArrowRight');
    expect(three.state.cursor!.day).toBe(15);
    expect(three.state.selected).toEqual(['B']);
  });

  it('jumps from a card to the cell before it going left', () => {
    const { state } = press(at(0, 0, 15, ['B']), 'ArrowLeft', 'ArrowLeft');
    expect(state.cursor!.day).toBe(13);
    expect(state.selected).toEqual([]);
    expect(press(at(0, 0, 15, ['B']), 'ArrowLeft', 'ArrowLeft', 'ArrowLeft').state.selected).toEqual(['A']);
  });

  it('walks lanes down and on into the next stage, and back up', () => {
    const down = press(at(0, 0, 12, ['A']), 'ArrowDown');
    expect(down.state.cursor).toEqual({ stage: 0, lane: 1, day: 12 });
    expect(down.state.selected).toEqual(['C']);
    const next = press(down.state, 'ArrowDown');
    expect(next.state.cursor).toEqual({ stage: 1, lane: 0, day: 12 });
    expect(next.state.selected).toEqual(['D']);
    const up = press(next.state, 'ArrowUp');
    expect(up.state.cursor).toEqual({ stage: 0, lane: 1, day: 12 });
  });

  it('stops at the edges of the board', () => {
    expect(press(at(0, 0, 5), 'ArrowUp').state.cursor).toEqual({ stage: 0, lane: 0, day: 5 });
    expect(press(at(1, 0, 5), 'ArrowDown').state.cursor).toEqual({ stage: 1, lane: 0, day: 5 });
    expect(press(at(0, 0, 0), 'ArrowLeft').state.cursor!.day).toBe(0);
    expect(press(at(0, 0, 99), 'ArrowRight').state.cursor!.day).toBe(99);
  });

  it('selects only the card under the cursor, dropping a multi-selection', () => {
    const { state } = press(at(0, 0, 11, ['A', 'D']), 'ArrowDown');
    expect(state.selected).toEqual(['C']);
  });
});

describe('commands', () => {
  it('opens the card under the cursor with Enter', () => {
    const result = press(at(0, 1, 12, ['C']), 'Enter');
    expect(result.command).toEqual({ type: 'open', id: 'C' });
    expect(result.state.panelOpen).toBe(true);
  });

  it('ignores Enter on an empty cell', () => {
    expect(press(at(1, 0, 40), 'Enter').handled).toBe(false);
  });

  it('closes the panel with Esc first, then clears the selection, then does nothing', () => {
    const open = { ...at(0, 0, 10, ['A']), panelOpen: true };
    const first = press(open, 'Escape');
    expect(first.command).toEqual({ type: 'close-panel' });
    expect(first.state.selected).toEqual(['A']);
    const second = press(first.state, 'Escape');
    expect(second.state).toMatchObject({ selected: [], cursor: null });
    expect(press(second.state, 'Escape').handled).toBe(false);
  });

  it('closes the shortcut list with Esc before anything else', () => {
    const result = press({ ...at(0, 0, 10, ['A']), helpOpen: true, panelOpen: true }, 'Escape');
    expect(result.state.helpOpen).toBe(false);
    expect(result.state.panelOpen).toBe(true);
    expect(result.command).toBeNull();
  });

  it('moves the selected cards a day with Alt+Left/Right, and the cursor along', () => {
    const result = press(at(0, 0, 10, ['A', 'D']), { key: 'ArrowRight', alt: true });
    expect(result.command).toEqual({ type: 'move-days', ids: ['A', 'D'], days: 1 });
    expect(result.state.cursor!.day).toBe(11);
    expect(press(at(0, 0, 10, ['A']), { key: 'ArrowLeft', alt: true }).command).toEqual({ type: 'move-days', ids: ['A'], days: -1 });
  });

  it('moves the selected cards a stage with Alt+Up/Down', () => {
    const result = press(at(0, 1, 12, ['C']), { key: 'ArrowDown', alt: true });
    expect(result.command).toEqual({ type: 'move-stage', ids: ['C'], stages: 1 });
    expect(result.state.cursor).toEqual({ stage: 1, lane: 0, day: 12 });
    expect(press(at(0, 0, 10, ['A']), { key: 'ArrowUp', alt: true }).command).toEqual({ type: 'move-stage', ids: ['A'], stages: -1 });
  });

  it('swallows Alt+arrows without a selection (Alt+Left would go back a page)', () => {
    const result = press(emptyNavState, { key: 'ArrowLeft', alt: true });
    expect(result).toMatchObject({ handled: true, command: null });
  });

  it('deletes the selected cards with Delete', () => {
    const result = press(at(0, 0, 10, ['A', 'B']), 'Delete');
    expect(result.command).toEqual({ type: 'delete', ids: ['A', 'B'] });
    expect(result.state.selected).toEqual([]);
  });

  it('undoes with Ctrl+Z and redoes with Ctrl+Shift+Z or Ctrl+Y', () => {
    expect(press(emptyNavState, { key: 'z', ctrl: true }).command).toEqual({ type: 'undo' });
    expect(press(emptyNavState, { key: 'Z', ctrl: true, shift: true }).command).toEqual({ type: 'redo' });
    expect(press(emptyNavState, { key: 'y', ctrl: true }).command).toEqual({ type: 'redo' });
  });

  it('toggles the shortcut list with ?', () => {
    const shown = press(emptyNavState, '?');
    expect(shown.state.helpOpen).toBe(true);
    expect(press(shown.state, '?').state.helpOpen).toBe(false);
  });

  it('leaves other keys to the browser', () => {
    for (const key of ['a', 'Tab', 'PageDown', ' ']) expect(press(at(0, 0, 10, ['A']), key).handled).toBe(false);
    expect(press(at(0, 0, 10, ['A']), { key: 'c', ctrl: true }).handled).toBe(false);
  });
});

describe('selecting with the pointer', () => {
  const a = cards[0]!;
  const d = cards[3]!;

  it('selects one card with a plain click and puts the cursor on the clicked day', () => {
    const state = clickCard(at(0, 0, 40, ['B', 'C']), d, 13, {});
    expect(state.selected).toEqual(['D']);
    expect(state.cursor).toEqual({ stage: 1, lane: 0, day: 13 });
  });

  it('adds with Shift and toggles with Ctrl', () => {
    const one = clickCard(emptyNavState, a, 10, {});
    const two = clickCard(one, d, 12, { shift: true });
    expect(two.selected).toEqual(['A', 'D']);
    expect(clickCard(two, d, 12, { shift: true }).selected).toEqual(['A', 'D']);
    expect(clickCard(two, a, 10, { ctrl: true }).selected).toEqual(['D']);
    expect(clickCard(two, cards[1]!, 15, { ctrl: true }).selected).toEqual(['A', 'D', 'B']);
  });
});
