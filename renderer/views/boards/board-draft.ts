/**
 * The board setup form's working copy of a board, and the one request body it saves as.
 *
 * The form saves the whole board in one POST or PUT with its stages, statuses and labels
 * inline; the API replaces each sent set (items with an id are updated, those without are
 * created, left-out ones deleted). Order is the list order: priority is the index. Errors
 * come back with paths into that body (`stages.1.name`), which `boardFormInputs` names.
 */
import type { WriteBody } from '../../api/resources.js';
import type { BoardColor } from '../../components/board-colors.js';
import { numberOrDefault, numberText, requiredText } from '../../components/form-values.js';
import { weekdays, type WeekdayKey } from '../../components/weekdays.js';
import { boardSpec, labelSpec, statusSpec, type capacityMethods, type dependencyBehaviors } from '../../../shared/resources/board.js';
import { stageSpec } from '../../../shared/resources/stage.js';
import { byPriority, type BoardWithParts } from './board-with-parts.js';

export type CapacityMethod = (typeof capacityMethods)[number];
export type DependencyBehavior = (typeof dependencyBehaviors)[number];

/** Rows have a `key` for React that stays the same while the row moves; `id` is null until saved. */
interface Row {
  key: string;
  id: string | null;
}

export interface StageDraft extends Row {
  name: string;
  /** Number inputs hold text; see form-values.ts. */
  delay_day: string;
  independent: boolean;
  efficiency: string;
  setup_minutes: string;
  /** Allowed activities, in their order in the stage. */
  activityIds: string[];
}

export interface StatusDraft extends Row {
  name: string;
  color: BoardColor;
  entry: boolean;
  exit: boolean;
}

export interface LabelDraft extends Row {
  name: string;
  color: BoardColor;
}

export interface BoardDraft {
  /** Null for a board not created yet. */
  id: string | null;
  name: string;
  color: BoardColor;
  workdays: Record<WeekdayKey, boolean>;
  dependency_behavior: DependencyBehavior;
  capacity_method: CapacityMethod;
  split_cards_by_activity: boolean;
  own_backlog: boolean;
  stages: StageDraft[];
  statuses: StatusDraft[];
  labels: LabelDraft[];
}

let lastKey = 0;
const newKey = () => `new-${++lastKey}`;

// New boards and rows start from the defaults the API itself would give.
const board = boardSpec.fields;
const stage = stageSpec.fields;

export function newBoardDraft(): BoardDraft {
  return {
    id: null,
    name: '',
    color: board.color.default,
    workdays: { ...board.workdays.default },
    dependency_behavior: board.dependency_behavior.default,
    capacity_method: board.capacity_method.default,
    split_cards_by_activity: board.split_cards_by_activity.default,
    own_backlog: board.own_backlog.default,
    stages: [],
    statuses: [],
    labels: [],
  };
}

export function newStage(): StageDraft {
  return {
    key: newKey(),
    id: null,
    name: '',
    delay_day: String(stage.delay_day.default),
    independent: stage.independent.default,
    efficiency: String(stage.efficiency.default),
    setup_minutes: String(stage.setup_minutes.default),
    activityIds: [],
  };
}

export function newStatus(): StatusDraft {
  return { key: newKey(), id: null, name: '', color: statusSpec.fields.color.default, entry: false, exit: false };
}

export function newLabel(): LabelDraft {
  return { key: newKey(), id: null, name: '', color: labelSpec.fields.color.default };
}

export function boardDraftFrom(saved: BoardWithParts): BoardDraft {
  return {
    id: saved.id,
    name: saved.name,
    color: saved.color,
    workdays: Object.fromEntries(weekdays.map(({ key }) => [key, saved.workdays[key] === true])) as Record<WeekdayKey, boolean>,
    dependency_behavior: saved.dependency_behavior,
    capacity_method: saved.capacity_method,
    split_cards_by_activity: saved.split_cards_by_activity,
    own_backlog: saved.own_backlog,
    stages: byPriority(saved.stages).map((s) => ({
      key: s.id,
      id: s.id,
      name: s.name,
      delay_day: numberText(s.delay_day),
      independent: s.independent,
      efficiency: numberText(s.efficiency),
      setup_minutes: numberText(s.setup_minutes),
      activityIds: byPriority(s.activities).map((activity) => activity.id),
    })),
    statuses: byPriority(saved.statuses).map((s) => ({
      key: s.id,
      id: s.id,
      name: s.name,
      color: s.color,
      entry: s.entry,
      exit: s.exit,
    })),
    labels: byPriority(saved.labels).map((l) => ({ key: l.id, id: l.id, name: l.name, color: l.color })),
  };
}

/** The POST (new board) or PUT (existing board) body that saves the whole draft. */
export function boardBody(draft: BoardDraft): WriteBody<'board'> {
  const isNew = draft.id === null;
  const idOf = (row: Row) => (row.id ? { id: row.id } : {});
  return {
    name: requiredText(draft.name, isNew),
    color: draft.color,
    workdays: { ...draft.workdays },
    dependency_behavior: draft.dependency_behavior,
    capacity_method: draft.capacity_method,
    split_cards_by_activity: draft.split_cards_by_activity,
    own_backlog: draft.own_backlog,
    stages: draft.stages.map((s, index) => ({
      ...idOf(s),
      name: requiredText(s.name, s.id === null),
      priority: index,
      delay_day: numberOrDefault(s.delay_day),
      independent: s.independent,
      efficiency: numberOrDefault(s.efficiency),
      setup_minutes: numberOrDefault(s.setup_minutes),
      activities: s.activityIds.map((id, priority) => ({ id, priority })),
    })),
    statuses: draft.statuses.map((s, index) => ({
      ...idOf(s),
      name: requiredText(s.name, s.id === null),
      color: s.color,
      priority: index,
      entry: s.entry,
      exit: s.exit,
    })),
    labels: draft.labels.map((l, index) => ({
      ...idOf(l),
      name: requiredText(l.name, l.id === null),
      color: l.color,
      priority: index,
    })),
  };
}

/** The field paths of `boardBody` the form shows an input (or a group of inputs) for. */
export function boardFormInputs(draft: BoardDraft): string[] {
  const rows = (set: string, count: number, fields: readonly string[]) =>
    Array.from({ length: count }, (_, i) => fields.map((field) => `${set}.${i}.${field}`)).flat();
  return [
    'name',
    'color',
    'workdays',
    'dependency_behavior',
    'capacity_method',
    'split_cards_by_activity',
    'own_backlog',
    'stages',
    ...rows('stages', draft.stages.length, ['name', 'delay_day', 'independent', 'efficiency', 'setup_minutes', 'activities']),
    'statuses',
    ...rows('statuses', draft.statuses.length, ['name', 'color', 'entry', 'exit']),
    'labels',
    ...rows('labels', draft.labels.length, ['name', 'color']),
  ];
}

/**
 * True when both drafts have the same rows in the same places. Errors of a failed save are
 * placed by row index, so once rows are added, removed or moved they would sit beside the
 * wrong row and must go.
 */
export function sameRows(a: BoardDraft, b: BoardDraft): boolean {
  const keys = (rows: readonly Row[]) => rows.map((row) => row.key).join();
  return keys(a.stages) === keys(b.stages) && keys(a.statuses) === keys(b.statuses) && keys(a.labels) === keys(b.labels);
}

/** The list with one item moved from one place to another; out-of-range moves change nothing. */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  if (from === to || from < 0 || to < 0 || from >= items.length || to >= items.length) return [...items];
  const moved = [...items];
  const [item] = moved.splice(from, 1);
  moved.splice(to, 0, item!);
  return moved;
}

/** The list with one item changed. */
export function replaceAt<T>(items: readonly T[], index: number, patch: Partial<T>): T[] {
  return items.map((item, i) => (i === index ? { ...item, ...patch } : item));
}

/**
 * The draft without activities deleted since the form opened. The API refuses a stage that
 * names one, and the form no longer shows it to untick.
 */
export function withoutDeletedActivities(draft: BoardDraft, existing: ReadonlySet<string>): BoardDraft {
  return { ...draft, stages: draft.stages.map((s) => ({ ...s, activityIds: s.activityIds.filter((id) => existing.has(id)) })) };
}
