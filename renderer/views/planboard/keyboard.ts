/**
 * The planboard's keyboard, as a pure function: the selection and a key go in, the new
 * selection and what to do come out. The grid applies the result (scrolls, calls the API),
 * so every rule here is tested without a DOM (test/renderer/planboard-keyboard.test.ts).
 *
 * The keyboard moves a cursor over cells: a stage's lane on a day. Arrows move it a cell at a
 * time; from a card, Left and Right jump to the cell just before or after it, so walking a row
 * visits each card once and the empty days between them. The card under the cursor is the
 * selection. Lanes are the lines a stage row stacks overlapping cards in (see lanes.ts); Up and
 * Down walk them, and across stage boundaries.
 */

export interface Cursor {
  /** Stage row, 0 first. */
  stage: number;
  /** Lane within the stage row, 0 the top one. */
  lane: number;
  /** Day number on the axis. */
  day: number;
}

/** A card as the keyboard sees it. */
export interface NavCard {
  id: string;
  stage: number;
  lane: number;
  first: number;
  last: number;
}

export interface NavContext {
  cards: readonly NavCard[];
  /** Lanes of each stage row (a row without cards still has one, to stand on). */
  lanesPerStage: readonly number[];
  /** Days on the axis. */
  days: number;
  /** Where the cursor starts when there is none: the first day in view. */
  startDay: number;
}

export interface NavState {
  cursor: Cursor | null;
  /** Selected card ids; the cursor's card is one of them after a keyboard move. */
  selected: readonly string[];
  /** The card panel shows a card. */
  panelOpen: boolean;
  /** The shortcut list is shown. */
  helpOpen: boolean;
}

export interface NavKey {
  key: string;
  shift?: boolean;
  /** Ctrl, or Cmd on macOS. */
  ctrl?: boolean;
  alt?: boolean;
}

export type NavCommand =
  | { type: 'open'; id: string }
  | { type: 'close-panel' }
  | { type: 'move-days'; ids: readonly string[]; days: number }
  | { type: 'move-stage'; ids: readonly string[]; stages: number }
  | { type: 'delete'; ids: readonly string[] }
  | { type: 'undo' }
  | { type: 'redo' };

export interface NavResult {
  state: NavState;
  command: NavCommand | null;
  /** The key meant something here: the caller stops the browser's default for it. */
  handled: boolean;
}

export const emptyNavState: NavState = { cursor: null, selected: [], panelOpen: false, helpOpen: false };

/** The card covering a cell, if any. */
export function cardAt(cards: readonly NavCard[], stage: number, lane: number, day: number): NavCard | undefined {
  return cards.find((card) => card.stage === stage && card.lane === lane && card.first <= day && card.last >= day);
}

export function planboardKey(state: NavState, input: NavKey, ctx: NavContext): NavResult {
  const { key, shift = false, ctrl = false, alt = false } = input;
  const same: NavResult = { state, command: null, handled: false };
  const done = (next: Partial<NavState>, command: NavCommand | null = null): NavResult => ({
    state: { ...state, ...next },
    command,
    handled: true,
  });

  if (ctrl && !alt && (key === 'z' || key === 'Z')) return done({}, { type: shift ? 'redo' : 'undo' });
  if (ctrl && !alt && (key === 'y' || key === 'Y')) return done({}, { type: 'redo' });
  if (key === '?') return done({ helpOpen: !state.helpOpen });
  if (key === 'Escape') {
    if (state.helpOpen) return done({ helpOpen: false });
    if (state.panelOpen) return done({ panelOpen: false }, { type: 'close-panel' });
    if (state.selected.length > 0 || state.cursor) return done({ selected: [], cursor: null });
    return same;
  }
  if (ctrl) return same;

  if (alt) {
    if (state.selected.length === 0) return isArrow(key) ? done({}) : same;
    const ids = state.selected;
    const cursor = state.cursor;
    switch (key) {
      case 'ArrowLeft':
      case 'ArrowRight': {
        const days = key === 'ArrowLeft' ? -1 : 1;
        return done({ cursor: cursor && { ...cursor, day: clampDay(cursor.day + days, ctx) } }, { type: 'move-days', ids, days });
      }
      case 'ArrowUp':
      case 'ArrowDown': {
        const stages = key === 'ArrowUp' ? -1 : 1;
        const stage = cursor ? cursor.stage + stages : -1;
        const fits = stage >= 0 && stage < ctx.lanesPerStage.length;
        return done({ cursor: cursor && fits ? { ...cursor, stage, lane: 0 } : cursor }, { type: 'move-stage', ids, stages });
      }
      default:
        return same;
    }
  }

  switch (key) {
    case 'ArrowLeft':
    case 'ArrowRight':
    case 'ArrowUp':
    case 'ArrowDown': {
      if (shift) return same;
      const cursor = state.cursor ? moveCursor(state.cursor, key, ctx) : startCursor(ctx);
      const card = cardAt(ctx.cards, cursor.stage, cursor.lane, cursor.day);
      return done({ cursor, selected: card ? [card.id] : [] });
    }
    case 'Enter': {
      const id = cursorCardId(state, ctx) ?? (state.selected.length === 1 ? state.selected[0] : undefined);
      return id ? done({ panelOpen: true }, { type: 'open', id }) : same;
    }
    case 'Delete':
    case 'Backspace':
      return state.selected.length > 0 ? done({ selected: [] }, { type: 'delete', ids: state.selected }) : same;
    default:
      return same;
  }
}

/**
 * Selection by pointer: a plain click selects one card; Ctrl (Cmd) adds or removes a card;
 * Shift adds it. The cursor goes to the clicked cell so the keyboard carries on from there.
 */
export function clickCard<S extends Pick<NavState, 'cursor' | 'selected'>>(
  state: S,
  card: NavCard,
  day: number,
  modifiers: { shift?: boolean; ctrl?: boolean },
): S {
  const cursor: Cursor = { stage: card.stage, lane: card.lane, day: Math.min(card.last, Math.max(card.first, day)) };
  if (modifiers.ctrl) {
    const selected = state.selected.includes(card.id) ? state.selected.filter((id) => id !== card.id) : [...state.selected, card.id];
    return { ...state, cursor, selected };
  }
  if (modifiers.shift) {
    return { ...state, cursor, selected: state.selected.includes(card.id) ? state.selected : [...state.selected, card.id] };
  }
  return { ...state, cursor, selected: [card.id] };
}

function isArrow(key: string): boolean {
  return key === 'ArrowLeft' || key === 'ArrowRight' || key === 'ArrowUp' || key === 'ArrowDown';
}

function cursorCardId(state: NavState, ctx: NavContext): string | undefined {
  const cursor = state.cursor;
  if (!cursor) return undefined;
  return cardAt(ctx.cards, cursor.stage, cursor.lane, cursor.day)?.id;
}

function startCursor(ctx: NavContext): Cursor {
  // The first card in view on the top stage that has one; else the top-left cell in view.
  const inView = ctx.cards
    .filter((card) => card.last >= ctx.startDay)
    .sort((a, b) => a.stage - b.stage || a.lane - b.lane || a.first - b.first);
  const first = inView[0];
  if (first) return { stage: first.stage, lane: first.lane, day: Math.max(first.first, ctx.startDay) };
  return { stage: 0, lane: 0, day: clampDay(ctx.startDay, ctx) };
}

function moveCursor(cursor: Cursor, key: string, ctx: NavContext): Cursor {
  const here = cardAt(ctx.cards, cursor.stage, cursor.lane, cursor.day);
  switch (key) {
    case 'ArrowLeft':
      return { ...cursor, day: clampDay((here ? here.first : cursor.day) - 1, ctx) };
    case 'ArrowRight':
      return { ...cursor, day: clampDay((here ? here.last : cursor.day) + 1, ctx) };
    case 'ArrowUp': {
      if (cursor.lane > 0) return { ...cursor, lane: cursor.lane - 1 };
      if (cursor.stage === 0) return cursor;
      const stage = cursor.stage - 1;
      return { ...cursor, stage, lane: lanesOf(stage, ctx) - 1 };
    }
    case 'ArrowDown': {
      if (cursor.lane < lanesOf(cursor.stage, ctx) - 1) return { ...cursor, lane: cursor.lane + 1 };
      if (cursor.stage >= ctx.lanesPerStage.length - 1) return cursor;
      return { ...cursor, stage: cursor.stage + 1, lane: 0 };
    }
    default:
      return cursor;
  }
}

function lanesOf(stage: number, ctx: NavContext): number {
  return Math.max(1, ctx.lanesPerStage[stage] ?? 1);
}

function clampDay(day: number, ctx: NavContext): number {
  return Math.min(ctx.days - 1, Math.max(0, day));
}
