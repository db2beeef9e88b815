/**
 * The resource form's working copy, and the body it saves as.
 *
 * Where a resource works is `boards: [{id, active, stages: [{id, percentage, active}]}]`. The
 * form treats it as "which stages, at what percentage": a resource works on a board when it
 * works on at least one of its stages. Entries naming a board or stage that no longer exists
 * are dropped on the next save, since the API would refuse them.
 */
import type { WriteBody } from '../../api/resources.js';
import { numberOrDefault, numberOrNull, numberText, requiredText } from '../../components/form-values.js';
import type { ResourceType } from '../../components/ResourceTypeSelect.js';
import { weekdays, type WeekdayKey } from '../../components/weekdays.js';
import type { Translate } from '../../i18n/index.js';
import type { Board } from '../../../shared/resources/board.js';
import { resourceSpec, type Resource } from '../../../shared/resources/resource.js';
import type { Stage } from '../../../shared/resources/stage.js';
import { secondShiftBody, shiftHoursFrom, type ShiftHours } from './second-shift.js';

/** `boards` as the API returns it: it fills in `active` and `percentage` on every write. */
export interface ResourceBoard {
  id: string;
  active: boolean;
  stages: { id: string; percentage: number; active: boolean }[];
}

export type BoardWithStages = Omit<Board, 'stages'> & { stages: Stage[] };

export interface StageAssignment {
  boardId: string;
  stageId: string;
  /** As typed. */
  percentage: string;
  active: boolean;
}

export interface ResourceDraft {
  name: string;
  type: ResourceType;
  /** `#rrggbb`, what a colour input holds. */
  color: string;
  /** Hours per weekday as typed; blank means the resource does not work that day. */
  hours: Record<WeekdayKey, string>;
  /** The second shift's hours per weekday as typed; all blank: one shift (second-shift.ts). */
  secondShift: ShiftHours;
  start_date: string;
  end_date: string;
  stages: StageAssignment[];
  /** Its skills as typed, comma-separated (docs/API.md "Skills and crews": a name has no comma). */
  skills: string;
}

const fields = resourceSpec.fields;
const defaultColor = '#8a94a3';

export function newResourceDraft(): ResourceDraft {
  const hours = fields.workdays.default;
  return {
    name: '',
    type: fields.type.default,
    color: defaultColor,
    hours: Object.fromEntries(weekdays.map(({ key }) => [key, numberText(hours[key])])) as Record<WeekdayKey, string>,
    secondShift: shiftHoursFrom(null),
    start_date: '',
    end_date: '',
    stages: [],
    skills: '',
  };
}

export function resourceDraftFrom(resource: Resource): ResourceDraft {
  const hours = resource.workdays as Record<string, number | null | undefined>;
  return {
    name: resource.name,
    type: resource.type,
    color: colorInputValue(resource.color_hex),
    hours: Object.fromEntries(weekdays.map(({ key }) => [key, numberText(hours[key])])) as Record<WeekdayKey, string>,
    secondShift: shiftHoursFrom(resource.second_shift),
    start_date: resource.start_date ?? '',
    end_date: resource.end_date ?? '',
    skills: (resource.skills ?? []).join(', '),
    stages: (resource.boards as ResourceBoard[]).flatMap((board) =>
      board.stages.map((stage) => ({
        boardId: board.id,
        stageId: stage.id,
        percentage: numberText(stage.percentage),
        active: stage.active,
      })),
    ),
  };
}

/** The body that saves the draft. `boards` are those shown, in their order; see the file head. */
export function resourceBody(draft: ResourceDraft, boards: readonly BoardWithStages[], isNew: boolean): WriteBody<'resource'> {
  return {
    name: requiredText(draft.name, isNew),
    type: draft.type,
    color_hex: draft.color.toLowerCase(),
    workdays: Object.fromEntries(weekdays.map(({ key }) => [key, numberOrNull(draft.hours[key])])),
    second_shift: secondShiftBody(draft.secondShift),
    start_date: draft.start_date || null,
    end_date: draft.end_date || null,
    skills: skillList(draft.skills),
    boards: boards.flatMap((board) => {
      const stages = board.stages.flatMap((stage) => {
        const assigned = draft.stages.find((a) => a.boardId === board.id && a.stageId === stage.id);
        return assigned ? [{ id: stage.id, percentage: numberOrDefault(assigned.percentage), active: assigned.active }] : [];
      });
      return stages.length > 0 ? [{ id: board.id, active: true, stages }] : [];
    }),
  };
}

/** Whether a day's hours as typed are what a day can hold: blank (not working) or 0–24. */
export function dayHoursFit(text: string): boolean {
  if (text.trim() === '') return true;
  const hours = Number(text);
  return Number.isFinite(hours) && hours >= 0 && hours <= 24;
}

export const resourceFormInputs = [
  'name',
  'type',
  'color_hex',
  'workdays',
  'second_shift',
  'start_date',
  'end_date',
  'skills',
  'boards',
] as const;

/** Skills as typed, "welding-cert-2, forklift", as the list the API keeps: trimmed, blanks and repeats left out. */
export function skillList(text: string): string[] {
  return [...new Set(text.split(',').map((skill) => skill.trim()))].filter((skill) => skill !== '');
}

/** A stored colour as a colour input needs it: `#abc` becomes `#aabbcc`; none shows grey. */
export function colorInputValue(hex: string | null): string {
  if (!hex) return defaultColor;
  return hex.length === 4 ? `#${[...hex.slice(1)].map((digit) => digit + digit).join('')}` : hex;
}

/** "Kitchen line: Sawing 50%, Painting 50%" for each board the resource works on. */
export function assignmentText(resource: Resource, boards: readonly BoardWithStages[], t: Translate): string[] {
  return (resource.boards as ResourceBoard[]).flatMap((assigned) => {
    const board = boards.find((candidate) => candidate.id === assigned.id);
    if (!board) return [];
    const stages = assigned.stages.flatMap((a) => {
      const stage = board.stages.find((candidate) => candidate.id === a.id);
      return stage ? [t('resources.stageShare', { stage: stage.name, percentage: a.percentage })] : [];
    });
    return [t('resources.boardStages', { board: board.name, stages: stages.join(', ') })];
  });
}
