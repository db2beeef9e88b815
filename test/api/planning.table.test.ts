/**
 * Planning a collection onto a board (`POST /v1/collection/{id}/board/{board_id}`), case by
 * case: each row gives the board (workdays, stages with their allowed activities, delay days,
 * independence, efficiency), the resources, the collection's activity minutes and due date and
 * the request body, and the cards that must come out — stage, first and last day, minutes per
 * activity, status — with the arithmetic written next to them. Rules: the head of
 * electron/api/planning/plan.ts and plan-collection.ts.
 *
 * Calendar (March 2024), boards work Monday to Friday unless a row says otherwise:
 *
 *   Mon 04  Tue 05  Wed 06  Thu 07  Fri 08 | Sat 09  Sun 10 | Mon 11  Tue 12  Wed 13  Thu 14  Fri 15 | Sat 16  Sun 17
 *
 * Without resources a workday gives a card 480 minutes. With resources it gives, summed over
 * them, hours × 60 × percentage on the stage × stage efficiency (minus deviations).
 * Every board has the statuses Backlog (priority 0), Ready (priority 1, entry) and Done (exit).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { expectFieldErrors } from '../helpers/order-data.js';
import {
  createActivities,
  createBoard,
  createCollection,
  createResource,
  eightHours,
  monToThu,
  plan,
  summarize,
  type Activities,
  type BoardSetup,
  type CardSummary,
  type Hours,
  type StageSetup,
} from '../helpers/planning.js';
import { expectBadRequest } from '../helpers/api-errors.js';
import { nowDate } from '../../shared/clock.js';
import { fixTheClock } from '../helpers/test-clock.js';

// What these tests expect depends on the day: they run at a fixed one (docs/architecture.md "Tests").
fixTheClock();

let api: TestApi;
let acts: Activities;

beforeAll(async () => {
  api = await startTestApi();
  acts = await createActivities(api);
});
afterAll(async () => {
  await api.close();
});

/** Cutting (delay 1 day) → Welding → Painting. */
const threeStages: StageSetup[] = [
  { name: 'Cutting', activities: ['Cut'], delay_day: 1 },
  { name: 'Welding', activities: ['Weld'] },
  { name: 'Painting', activities: ['Paint'] },
];
/** Cutting → Welding, no delay. */
const twoStages: StageSetup[] = [
  { name: 'Cutting', activities: ['Cut'] },
  { name: 'Welding', activities: ['Weld'] },
];

interface ResourceRow {
  name: string;
  workdays?: Hours;
  /** Put the resource on the board, with these percentages per stage name. */
  onBoard?: Record<string, number>;
  deviations?: { start_date: string; end_date: string; time?: number | null }[];
}

interface Row {
  name: string;
  board: BoardSetup;
  resources?: ResourceRow[];
  minutes: Record<string, number>;
  due_date?: string;
  body: {
    start?: string;
    end?: string;
    reverse?: boolean;
    /** Stage names. */
    force_stages?: string[];
    /** Resource names. */
    resources?: string[];
    stage_id?: string;
    status_id?: 'Backlog' | 'Ready' | 'Done';
  };
  /** Status defaults to Ready (the entry status). */
  cards: (Omit<CardSummary, 'status'> & { status?: CardSummary['status'] })[];
  warnings?: string[];
  progress?: 'open' | 'partial' | 'done';
}

const rows: Row[] = [
  // ------------------------------------------------------------------ stages, delays, independence
  {
    name: 'three stages with a delay',
    board: { stages: threeStages },
    minutes: { Cut: 960, Weld: 480, Paint: 480 },
    body: { start: '2024-03-04' },
    cards: [
      // 960 = 480 + 480: Mon, Tue.
      { stage: 'Cutting', start: '2024-03-04', end: '2024-03-05', minutes: { Cut: 960 } },
      // After Tue, Cutting's delay keeps Wed free: Thu.
      { stage: 'Welding', start: '2024-03-07', end: '2024-03-07', minutes: { Weld: 480 } },
      // Welding has no delay: the next workday, Fri.
      { stage: 'Painting', start: '2024-03-08', end: '2024-03-08', minutes: { Paint: 480 } },
    ],
  },
  {
    name: 'an independent stage starts with the collection and is not part of the chain',
    board: {
      stages: [
        { name: 'Cutting', activities: ['Cut'] },
        { name: 'Design', activities: ['Design'], independent: true },
        { name: 'Welding', activities: ['Weld'] },
      ],
    },
    minutes: { Cut: 480, Design: 960, Weld: 480 },
    body: { start: '2024-03-06' },
    cards: [
      { stage: 'Cutting', start: '2024-03-06', end: '2024-03-06', minutes: { Cut: 480 } },
      // Independent: at the collection's start, Wed; 960 → Wed, Thu.
      { stage: 'Design', start: '2024-03-06', end: '2024-03-07', minutes: { Design: 960 } },
      // Follows Cutting (Wed), not Design (Thu): Thu.
      { stage: 'Welding', start: '2024-03-07', end: '2024-03-07', minutes: { Weld: 480 } },
    ],
  },
  {
    name: 'an independent first stage does not hold back the first dependent stage',
    board: {
      stages: [
        { name: 'Design', activities: ['Design'], independent: true, delay_day: 3 },
        { name: 'Cutting', activities: ['Cut'] },
        { name: 'Welding', activities: ['Weld'] },
      ],
    },
    minutes: { Design: 480, Cut: 480, Weld: 480 },
    body: { start: '2024-03-04' },
    cards: [
      { stage: 'Design', start: '2024-03-04', end: '2024-03-04', minutes: { Design: 480 } },
      // The first dependent stage starts at the collection's start; Design's delay does not count.
      { stage: 'Cutting', start: '2024-03-04', end: '2024-03-04', minutes: { Cut: 480 } },
      { stage: 'Welding', start: '2024-03-05', end: '2024-03-05', minutes: { Weld: 480 } },
    ],
  },
  // ------------------------------------------------------------------ the board's calendar
  {
    name: 'a weekend in the middle of a card',
    board: { stages: twoStages },
    minutes: { Cut: 1440, Weld: 480 },
    body: { start: '2024-03-07' },
    cards: [
      // 1440 = 3 × 480: Thu, Fri, (Sat, Sun skipped) Mon.
      { stage: 'Cutting', start: '2024-03-07', end: '2024-03-11', minutes: { Cut: 1440 } },
      { stage: 'Welding', start: '2024-03-12', end: '2024-03-12', minutes: { Weld: 480 } },
    ],
  },
  {
    name: 'a weekend between stages: delay days are workdays',
    board: { stages: threeStages },
    minutes: { Cut: 480, Weld: 480, Paint: 480 },
    body: { start: '2024-03-08' },
    cards: [
      { stage: 'Cutting', start: '2024-03-08', end: '2024-03-08', minutes: { Cut: 480 } },
      // Fri, then Sat and Sun are no workdays, Mon is the delay day: Tue.
      { stage: 'Welding', start: '2024-03-12', end: '2024-03-12', minutes: { Weld: 480 } },
      { stage: 'Painting', start: '2024-03-13', end: '2024-03-13', minutes: { Paint: 480 } },
    ],
  },
  {
    name: 'a start on a Saturday moves to the Monday',
    board: { stages: twoStages },
    minutes: { Cut: 480, Weld: 480 },
    body: { start: '2024-03-09' },
    cards: [
      { stage: 'Cutting', start: '2024-03-11', end: '2024-03-11', minutes: { Cut: 480 } },
      { stage: 'Welding', start: '2024-03-12', end: '2024-03-12', minutes: { Weld: 480 } },
    ],
  },
  {
    name: 'a board that works Monday to Thursday skips Fridays',
    board: { stages: twoStages, workdays: monToThu },
    minutes: { Cut: 960, Weld: 480 },
    body: { start: '2024-03-07' },
    cards: [
      // Thu, (Fri, Sat, Sun) Mon.
      { stage: 'Cutting', start: '2024-03-07', end: '2024-03-11', minutes: { Cut: 960 } },
      { stage: 'Welding', start: '2024-03-12', end: '2024-03-12', minutes: { Weld: 480 } },
    ],
  },
  // ------------------------------------------------------------------ duration and capacity
  {
    name: 'no resources: 480 minutes a workday; a card takes at least one day',
    board: { stages: twoStages },
    minutes: { Cut: 481, Weld: 0 },
    body: { start: '2024-03-04' },
    cards: [
      // 481 > 480: a second day.
      { stage: 'Cutting', start: '2024-03-04', end: '2024-03-05', minutes: { Cut: 481 } },
      // 0 minutes: still one day.
      { stage: 'Welding', start: '2024-03-06', end: '2024-03-06', minutes: { Weld: 0 } },
    ],
  },
  {
    name: 'a resource of 8 h at 100 % on a 100 % stage gives 480 a day',
    board: { stages: twoStages },
    resources: [{ name: 'Anna', onBoard: { Cutting: 100, Welding: 100 } }],
    minutes: { Cut: 960, Weld: 480 },
    body: { start: '2024-03-04', resources: ['Anna'] },
    cards: [
      { stage: 'Cutting', start: '2024-03-04', end: '2024-03-05', minutes: { Cut: 960 } },
      { stage: 'Welding', start: '2024-03-06', end: '2024-03-06', minutes: { Weld: 480 } },
    ],
  },
  {
    name: 'a holiday of the assigned resource makes the card one day longer',
    board: { stages: twoStages },
    resources: [
      { name: 'Anna', onBoard: { Cutting: 100, Welding: 100 }, deviations: [{ start_date: '2024-03-05', end_date: '2024-03-05' }] },
    ],
    minutes: { Cut: 960, Weld: 480 },
    body: { start: '2024-03-04', resources: ['Anna'] },
    cards: [
      // Mon 480, Tue 0 (holiday), Wed 480 = 960.
      { stage: 'Cutting', start: '2024-03-04', end: '2024-03-06', minutes: { Cut: 960 } },
      { stage: 'Welding', start: '2024-03-07', end: '2024-03-07', minutes: { Weld: 480 } },
    ],
  },
  {
    name: 'a deviation of 240 minutes takes that much off the day',
    board: { stages: twoStages },
    resources: [{ name: 'Anna', onBoard: { Cutting: 100 }, deviations: [{ start_date: '2024-03-05', end_date: '2024-03-05', time: 240 }] }],
    minutes: { Cut: 900, Weld: 480 },
    body: { start: '2024-03-04', resources: ['Anna'] },
    cards: [
      // Mon 480, Tue 240 (= 720 < 900), Wed 480. Without the deviation it would end on Tue.
      { stage: 'Cutting', start: '2024-03-04', end: '2024-03-06', minutes: { Cut: 900 } },
      { stage: 'Welding', start: '2024-03-07', end: '2024-03-07', minutes: { Weld: 480 } },
    ],
  },
  {
    name: '80 % efficiency with a resource: 8 h × 100 % × 80 % = 384 a day',
    board: {
      stages: [
        { name: 'Cutting', activities: ['Cut'] },
        { name: 'Welding', activities: ['Weld'], efficiency: 80 },
      ],
    },
    resources: [{ name: 'Anna', onBoard: { Cutting: 100, Welding: 100 } }],
    minutes: { Cut: 480, Weld: 800 },
    body: { start: '2024-03-04', resources: ['Anna'] },
    cards: [
      { stage: 'Cutting', start: '2024-03-04', end: '2024-03-04', minutes: { Cut: 480 } },
      // Tue 384, Wed 768 (< 800), Thu 1152.
      { stage: 'Welding', start: '2024-03-05', end: '2024-03-07', minutes: { Weld: 800 } },
    ],
  },
  {
    name: '80 % efficiency without resources: still 480 a day',
    board: {
      stages: [
        { name: 'Cutting', activities: ['Cut'] },
        { name: 'Welding', activities: ['Weld'], efficiency: 80 },
      ],
    },
    minutes: { Cut: 480, Weld: 800 },
    body: { start: '2024-03-04' },
    cards: [
      { stage: 'Cutting', start: '2024-03-04', end: '2024-03-04', minutes: { Cut: 480 } },
      // Tue 480, Wed 960 ≥ 800.
      { stage: 'Welding', start: '2024-03-05', end: '2024-03-06', minutes: { Weld: 800 } },
    ],
  },
  {
    name: 'a resource at 50 % on a stage: 8 h × 50 % = 240 a day',
    board: { stages: twoStages },
    resources: [{ name: 'Anna', onBoard: { Cutting: 100, Welding: 50 } }],
    minutes: { Cut: 480, Weld: 720 },
    body: { start: '2024-03-04', resources: ['Anna'] },
    cards: [
      { stage: 'Cutting', start: '2024-03-04', end: '2024-03-04', minutes: { Cut: 480 } },
      // Tue 240, Wed 480, Thu 720.
      { stage: 'Welding', start: '2024-03-05', end: '2024-03-07', minutes: { Weld: 720 } },
    ],
  },
  {
    name: 'a resource not on the board works at the stage default_percentage',
    board: {
      stages: [
        { name: 'Cutting', activities: ['Cut'] },
        { name: 'Welding', activities: ['Weld'], default_percentage: 50 },
      ],
    },
    resources: [{ name: 'Anna' }],
    minutes: { Cut: 480, Weld: 720 },
    body: { start: '2024-03-04', resources: ['Anna'] },
    cards: [
      { stage: 'Cutting', start: '2024-03-04', end: '2024-03-04', minutes: { Cut: 480 } },
      // 8 h × 50 % (default) = 240: Tue, Wed, Thu.
      { stage: 'Welding', start: '2024-03-05', end: '2024-03-07', minutes: { Weld: 720 } },
    ],
  },
  {
    name: 'two resources add up: 8 h + 4 h = 720 a day',
    board: { stages: twoStages },
    resources: [
      { name: 'Anna', onBoard: { Cutting: 100, Welding: 100 } },
      { name: 'Ben', workdays: { '1': 4, '2': 4, '3': 4, '4': 4, '5': 4, '6': null, '7': null }, onBoard: { Cutting: 100, Welding: 100 } },
    ],
    minutes: { Cut: 1440, Weld: 720 },
    body: { start: '2024-03-04', resources: ['Anna', 'Ben'] },
    cards: [
      { stage: 'Cutting', start: '2024-03-04', end: '2024-03-05', minutes: { Cut: 1440 } },
      { stage: 'Welding', start: '2024-03-06', end: '2024-03-06', minutes: { Weld: 720 } },
    ],
  },
  {
    name: "a resource's own schedule: no hours on Friday",
    board: { stages: twoStages },
    resources: [{ name: 'Anna', workdays: { ...eightHours, '5': null }, onBoard: { Cutting: 100, Welding: 100 } }],
    minutes: { Cut: 960, Weld: 480 },
    body: { start: '2024-03-07', resources: ['Anna'] },
    cards: [
      // Thu 480, Fri 0 (no hours), Mon 480.
      { stage: 'Cutting', start: '2024-03-07', end: '2024-03-11', minutes: { Cut: 960 } },
      { stage: 'Welding', start: '2024-03-12', end: '2024-03-12', minutes: { Weld: 480 } },
    ],
  },
  // ------------------------------------------------------------------ reverse
  {
    name: 'reverse planning ends the last stage on the due date',
    board: { stages: threeStages },
    minutes: { Cut: 960, Weld: 480, Paint: 480 },
    due_date: '2024-03-15',
    body: { reverse: true },
    cards: [
      // Back from Thu minus Cutting's delay day (Wed): Tue, Mon.
      { stage: 'Cutting', start: '2024-03-11', end: '2024-03-12', minutes: { Cut: 960 } },
      // The workday before Painting: Thu.
      { stage: 'Welding', start: '2024-03-14', end: '2024-03-14', minutes: { Weld: 480 } },
      { stage: 'Painting', start: '2024-03-15', end: '2024-03-15', minutes: { Paint: 480 } },
    ],
  },
  {
    name: 'reverse planning to the end given in the body, before the due date',
    board: { stages: threeStages },
    minutes: { Cut: 960, Weld: 480, Paint: 480 },
    due_date: '2024-03-15',
    body: { reverse: true, end: '2024-03-08' },
    cards: [
      // The mirror image of "three stages with a delay".
      { stage: 'Cutting', start: '2024-03-04', end: '2024-03-05', minutes: { Cut: 960 } },
      { stage: 'Welding', start: '2024-03-07', end: '2024-03-07', minutes: { Weld: 480 } },
      { stage: 'Painting', start: '2024-03-08', end: '2024-03-08', minutes: { Paint: 480 } },
    ],
  },
  {
    name: 'reverse from a due date on a Sunday ends on the Friday before',
    board: { stages: twoStages },
    minutes: { Cut: 960, Weld: 480 },
    due_date: '2024-03-17',
    body: { reverse: true },
    cards: [
      { stage: 'Cutting', start: '2024-03-13', end: '2024-03-14', minutes: { Cut: 960 } },
      { stage: 'Welding', start: '2024-03-15', end: '2024-03-15', minutes: { Weld: 480 } },
    ],
  },
  {
    name: 'reverse with an independent stage: it ends on the due date as well',
    board: {
      stages: [
        { name: 'Cutting', activities: ['Cut'] },
        { name: 'Welding', activities: ['Weld'] },
        { name: 'Design', activities: ['Design'], independent: true },
      ],
    },
    minutes: { Cut: 480, Weld: 480, Design: 960 },
    due_date: '2024-03-15',
    body: { reverse: true },
    cards: [
      { stage: 'Cutting', start: '2024-03-14', end: '2024-03-14', minutes: { Cut: 480 } },
      { stage: 'Welding', start: '2024-03-15', end: '2024-03-15', minutes: { Weld: 480 } },
      // 960 back from Fri: Thu, Fri.
      { stage: 'Design', start: '2024-03-14', end: '2024-03-15', minutes: { Design: 960 } },
    ],
  },
  // ------------------------------------------------------------------ which cards
  {
    name: 'split_cards_by_activity: one card per activity; cards of a stage start together',
    board: {
      split_cards_by_activity: true,
      stages: [
        { name: 'Prep', activities: ['Cut', 'Weld'] },
        { name: 'Painting', activities: ['Paint'] },
      ],
    },
    minutes: { Cut: 480, Weld: 960, Paint: 480 },
    body: { start: '2024-03-04' },
    cards: [
      { stage: 'Prep', start: '2024-03-04', end: '2024-03-04', minutes: { Cut: 480 } },
      { stage: 'Prep', start: '2024-03-04', end: '2024-03-05', minutes: { Weld: 960 } },
      // After the last card of Prep (Tue): Wed.
      { stage: 'Painting', start: '2024-03-06', end: '2024-03-06', minutes: { Paint: 480 } },
    ],
  },
  {
    name: 'without split_cards_by_activity a stage gets one card with all its activities',
    board: {
      stages: [
        { name: 'Prep', activities: ['Cut', 'Weld'] },
        { name: 'Painting', activities: ['Paint'] },
      ],
    },
    minutes: { Cut: 480, Weld: 960, Paint: 480 },
    body: { start: '2024-03-04' },
    cards: [
      // 480 + 960 = 1440: Mon, Tue, Wed.
      { stage: 'Prep', start: '2024-03-04', end: '2024-03-06', minutes: { Cut: 480, Weld: 960 } },
      { stage: 'Painting', start: '2024-03-07', end: '2024-03-07', minutes: { Paint: 480 } },
    ],
  },
  {
    name: 'force_stages: a stage with none of the activities still gets a card',
    board: {
      stages: [
        { name: 'Cutting', activities: ['Cut'] },
        { name: 'Inspection', activities: ['Inspect'] },
        { name: 'Painting', activities: ['Paint'] },
      ],
    },
    minutes: { Cut: 480, Paint: 480 },
    body: { start: '2024-03-04', force_stages: ['Inspection'] },
    cards: [
      { stage: 'Cutting', start: '2024-03-04', end: '2024-03-04', minutes: { Cut: 480 } },
      // No minutes: one day, in the chain.
      { stage: 'Inspection', start: '2024-03-05', end: '2024-03-05', minutes: {} },
      { stage: 'Painting', start: '2024-03-06', end: '2024-03-06', minutes: { Paint: 480 } },
    ],
  },
  {
    name: 'without force_stages a stage with none of the activities gets no card',
    board: {
      stages: [
        { name: 'Cutting', activities: ['Cut'] },
        { name: 'Inspection', activities: ['Inspect'] },
        { name: 'Painting', activities: ['Paint'] },
      ],
    },
    minutes: { Cut: 480, Paint: 480 },
    body: { start: '2024-03-04' },
    cards: [
      { stage: 'Cutting', start: '2024-03-04', end: '2024-03-04', minutes: { Cut: 480 } },
      { stage: 'Painting', start: '2024-03-05', end: '2024-03-05', minutes: { Paint: 480 } },
    ],
  },
  {
    name: 'stage_id: everything on that one stage',
    board: { stages: threeStages },
    minutes: { Cut: 480, Weld: 480, Paint: 480 },
    body: { start: '2024-03-04', stage_id: 'Welding' },
    cards: [
      // 1440: Mon, Tue, Wed; even activities Welding does not allow.
      { stage: 'Welding', start: '2024-03-04', end: '2024-03-06', minutes: { Cut: 480, Paint: 480, Weld: 480 } },
    ],
  },
  {
    name: 'an activity allowed in two stages goes to the first of them',
    board: {
      stages: [
        { name: 'Cutting', activities: ['Cut'] },
        { name: 'Finishing', activities: ['Cut', 'Paint'] },
      ],
    },
    minutes: { Cut: 480, Paint: 480 },
    body: { start: '2024-03-04' },
    cards: [
      { stage: 'Cutting', start: '2024-03-04', end: '2024-03-04', minutes: { Cut: 480 } },
      { stage: 'Finishing', start: '2024-03-05', end: '2024-03-05', minutes: { Paint: 480 } },
    ],
  },
  {
    name: 'an activity no stage allows is left out and warned about',
    board: { stages: twoStages },
    minutes: { Cut: 480, Pack: 120 },
    body: { start: '2024-03-04' },
    cards: [{ stage: 'Cutting', start: '2024-03-04', end: '2024-03-04', minutes: { Cut: 480 } }],
    warnings: ['Activity Pack is not allowed in any stage of the board, so it was not planned'],
  },
  {
    name: 'a collection without activities gets one card on the first stage',
    board: { stages: twoStages },
    minutes: {},
    body: { start: '2024-03-04' },
    cards: [{ stage: 'Cutting', start: '2024-03-04', end: '2024-03-04', minutes: {} }],
  },
  // ------------------------------------------------------------------ statuses and warnings
  {
    name: 'status_id gives the cards that status instead of the entry status',
    board: { stages: twoStages },
    minutes: { Cut: 480, Weld: 480 },
    body: { start: '2024-03-04', status_id: 'Backlog' },
    cards: [
      { stage: 'Cutting', start: '2024-03-04', end: '2024-03-04', minutes: { Cut: 480 }, status: 'Backlog' },
      { stage: 'Welding', start: '2024-03-05', end: '2024-03-05', minutes: { Weld: 480 }, status: 'Backlog' },
    ],
  },
  {
    name: 'status_id of an exit status: the collection is done',
    board: { stages: twoStages },
    minutes: { Cut: 480, Weld: 480 },
    body: { start: '2024-03-04', status_id: 'Done' },
    cards: [
      { stage: 'Cutting', start: '2024-03-04', end: '2024-03-04', minutes: { Cut: 480 }, status: 'Done' },
      { stage: 'Welding', start: '2024-03-05', end: '2024-03-05', minutes: { Weld: 480 }, status: 'Done' },
    ],
    progress: 'done',
  },
  {
    name: 'an end after the due date is warned about',
    board: { stages: twoStages },
    minutes: { Cut: 960, Weld: 480 },
    due_date: '2024-03-05',
    body: { start: '2024-03-04' },
    cards: [
      { stage: 'Cutting', start: '2024-03-04', end: '2024-03-05', minutes: { Cut: 960 } },
      { stage: 'Welding', start: '2024-03-06', end: '2024-03-06', minutes: { Weld: 480 } },
    ],
    warnings: ['Planned to end on 2024-03-06, after the due date 2024-03-05'],
  },
];

describe('planning a collection: inputs → cards', () => {
  for (const row of rows) {
    it(row.name, async () => {
      const board = await createBoard(api, acts, row.board);
      const resourceIds: Record<string, string> = {};
      for (const r of row.resources ?? []) {
        resourceIds[r.name] = await createResource(api, {
          name: r.name,
          ...(r.workdays ? { workdays: r.workdays } : {}),
          ...(r.onBoard ? { board: { ids: board, percentages: r.onBoard } } : {}),
          ...(r.deviations ? { deviations: r.deviations } : {}),
        });
      }
      const collection = await createCollection(api, board.id, acts, row.minutes, row.due_date ? { due_date: row.due_date } : {});
      const { force_stages, resources, stage_id, status_id, ...rest } = row.body;
      const body: Record<string, unknown> = { ...rest };
      if (force_stages) body.force_stages = force_stages.map((s) => board.stages[s]);
      if (resources) body.resources = resources.map((r) => resourceIds[r]);
      if (stage_id) body.stage_id = board.stages[stage_id];
      if (status_id) body.status_id = board.statuses[status_id];

      const planned = await plan(api, collection.id, board.id, body);

      const expected = row.cards.map((c) => ({ status: 'Ready', ...c }));
      expect(summarize(planned.cards, board, acts)).toEqual(expected);
      // The collection follows from its cards.
      const starts = expected.map((c) => c.start!).sort();
      const ends = expected.map((c) => c.end!).sort();
      expect(planned).toMatchObject({
        id: collection.id,
        board_id: board.id,
        status: 'planned',
        start: starts[0],
        end: ends[ends.length - 1],
        progress: row.progress ?? 'open',
        warnings: row.warnings ?? [],
      });
      // What the response said is what is stored.
      const stored = await api.inject('GET', `/v1/collection/${collection.id}?with=cards.activities`);
      expect(summarize(stored.body.cards, board, acts)).toEqual(expected);
    });
  }
});

describe('what planning writes on each card', () => {
  it('names the card after the collection, sets board_id, days_diff, days_active and a rank', async () => {
    const board = await createBoard(api, acts, { stages: twoStages });
    const collection = await createCollection(api, board.id, acts, { Cut: 1440, Weld: 480 }, { name: 'Order 10199' });
    const planned = await plan(api, collection.id, board.id, { start: '2024-03-07' });
    const cutting = planned.cards.find((c: any) => c.stage_id === board.stages.Cutting);
    expect(cutting).toMatchObject({
      name: 'Order 10199',
      collection_id: collection.id,
      board_id: board.id,
      start_date: '2024-03-07',
      end_date: '2024-03-11',
      // Thu → Mon: 4 calendar days, 3 workdays.
      days_diff: 4,
      days_active: 3,
      locked: false,
      completed_at: null,
    });
    expect(cutting.rank).toMatch(/^[a-z]{12,}$/);
  });

  it('names split cards "<collection> – <activity>"', async () => {
    const board = await createBoard(api, acts, { split_cards_by_activity: true, stages: [{ name: 'Prep', activities: ['Cut', 'Weld'] }] });
    const collection = await createCollection(api, board.id, acts, { Cut: 480, Weld: 480 }, { name: 'Order 7' });
    const planned = await plan(api, collection.id, board.id, { start: '2024-03-04' });
    expect(planned.cards.map((c: any) => c.name).sort()).toEqual(['Order 7 – Cut', 'Order 7 – Weld']);
  });

  it('assigns the resources of the body to every card', async () => {
    const board = await createBoard(api, acts, { stages: twoStages });
    const anna = await createResource(api, { name: 'Anna', board: { ids: board, percentages: { Cutting: 100, Welding: 100 } } });
    const ben = await createResource(api, { name: 'Ben', board: { ids: board, percentages: { Cutting: 100, Welding: 100 } } });
    const collection = await createCollection(api, board.id, acts, { Cut: 480, Weld: 480 });
    await plan(api, collection.id, board.id, { start: '2024-03-04', resources: [anna, ben] });
    const cards = (await api.inject('GET', `/v1/collection/${collection.id}/card?with=resources`)).body.data;
    expect(cards).toHaveLength(2);
    for (const card of cards) expect(card.resources.map((r: any) => r.id).sort()).toEqual([anna, ben].sort());
  });

  it('defaults start to today when the body is empty', async () => {
    const board = await createBoard(api, acts, {
      stages: twoStages,
      workdays: { '1': true, '2': true, '3': true, '4': true, '5': true, '6': true, '7': true },
    });
    const collection = await createCollection(api, board.id, acts, { Cut: 480 });
    const res = await api.inject('POST', `/v1/collection/${collection.id}/board/${board.id}`, {});
    expect(res.status).toBe(200);
    const today = nowDate().toISOString().slice(0, 10);
    expect(res.body.cards[0].start_date).toBe(today);
  });

  it('plans without a body at all', async () => {
    const board = await createBoard(api, acts, { stages: twoStages });
    const collection = await createCollection(api, board.id, acts, { Cut: 480 });
    const res = await api.inject('POST', `/v1/collection/${collection.id}/board/${board.id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.cards).toHaveLength(1);
  });

  it('places the new cards before or after the cards of another collection (before / after)', async () => {
    const board = await createBoard(api, acts, { stages: [{ name: 'Cutting', activities: ['Cut'] }] });
    const rankOf = async (collectionId: string) =>
      (await api.inject('GET', `/v1/collection/${collectionId}/card`)).body.data[0].rank as string;
    const a = await createCollection(api, board.id, acts, { Cut: 60 });
    const b = await createCollection(api, board.id, acts, { Cut: 60 });
    await plan(api, a.id, board.id, { start: '2024-03-04' });
    await plan(api, b.id, board.id, { start: '2024-03-04' });
    const [rankA, rankB] = [await rankOf(a.id), await rankOf(b.id)];
    expect(rankA < rankB).toBe(true);

    const first = await createCollection(api, board.id, acts, { Cut: 60 });
    await plan(api, first.id, board.id, { start: '2024-03-04', before: a.id });
    expect((await rankOf(first.id)) < rankA).toBe(true);

    const between = await createCollection(api, board.id, acts, { Cut: 60 });
    await plan(api, between.id, board.id, { start: '2024-03-04', after: a.id });
    const rankBetween = await rankOf(between.id);
    expect(rankA < rankBetween && rankBetween < rankB).toBe(true);

    const last = await createCollection(api, board.id, acts, { Cut: 60 });
    await plan(api, last.id, board.id, { start: '2024-03-04' });
    expect((await rankOf(last.id)) > rankB).toBe(true);
  });

  it('a busy stage takes 400 collections, each appended after the last', async () => {
    const board = await createBoard(api, acts, { stages: [{ name: 'Cutting', activities: ['Cut'] }] });
    const ranks: string[] = [];
    for (let i = 0; i < 400; i++) {
      const collection = await createCollection(api, board.id, acts, { Cut: 60 });
      const res = await api.inject('POST', `/v1/collection/${collection.id}/board/${board.id}`, { start: '2024-03-04' });
      expect(res.status, `collection #${i + 1}: ${JSON.stringify(res.body)}`).toBe(200);
      ranks.push(res.body.cards[0].rank);
    }
    expect([...ranks].sort()).toEqual(ranks);
    expect(new Set(ranks).size).toBe(400);
  });
});

/**
 * Who does the work (docs/API.md "Planning", "Who does the work"): without resources in the
 * body, each card gets the stage's people whose capacity the plan counted.
 *
 * Board Shop (Mon–Fri) with Cutting and Welding. Anna and Ben work 8 h on Cutting, Cara and
 * Dirk 8 h on Welding, each at 100 %. The week is Mon 2027-03-01 … Fri 03-05. Already planned
 * on Cutting: Old, 480 min on Mon, done by Anna (named in its plan).
 */
describe('who does the work when the plan names nobody', () => {
  let shop: Awaited<ReturnType<typeof createBoard>>;
  const people: Record<string, string> = {};
  const assigned = async (planned: any) =>
    (await api.inject('GET', `/v1/collection/${planned.id}/card?with=resources&sort=start_date:asc`)).body.data.map((card: any) => [
      card.start_date,
      card.end_date,
      card.resources.map((r: any) => Object.keys(people).find((name) => people[name] === r.id)).sort(),
    ]);
  const capacity = async (view: 'stage' | 'resource', day: string) =>
    (await api.inject('GET', `/v1/board/${shop.id}/capacity/${view}?date_range_start=${day}&date_range_end=${day}&time_frame=day`)).body
      .data[0][view];

  beforeAll(async () => {
    shop = await createBoard(api, acts, { stages: twoStages });
    for (const [name, stage] of [
      ['Anna', 'Cutting'],
      ['Ben', 'Cutting'],
      ['Cara', 'Welding'],
      ['Dirk', 'Welding'],
    ] as const) {
      people[name] = await createResource(api, { name, board: { ids: shop, percentages: { [stage]: 100 } } });
    }
    const old = await createCollection(api, shop.id, acts, { Cut: 480 });
    await plan(api, old.id, shop.id, { start: '2027-03-01', resources: [people.Anna] });
  });

  it('finite: the stage’s people with free time on those days, the fewest that have room, the most free first', async () => {
    // Mon: Anna is full with Old, Ben is free: 240 min go to Ben alone.
    const small = await createCollection(api, shop.id, acts, { Cut: 240 });
    expect(await assigned(await plan(api, small.id, shop.id, { start: '2027-03-01', capacity: 'finite' }))).toEqual([
      ['2027-03-01', '2027-03-01', ['Ben']],
    ]);
    // 960 min: Monday has 240 left (Ben's), so Tue alone, 960 that day, which takes both.
    const big = await createCollection(api, shop.id, acts, { Cut: 960 });
    expect(await assigned(await plan(api, big.id, shop.id, { start: '2027-03-01', capacity: 'finite' }))).toEqual([
      ['2027-03-02', '2027-03-02', ['Anna', 'Ben']],
    ]);
    // Wed, 120 min, and on to Welding on Thu: Cara and Dirk are equally free there, so by name.
    const both = await createCollection(api, shop.id, acts, { Cut: 120, Weld: 120 });
    expect(await assigned(await plan(api, both.id, shop.id, { start: '2027-03-03', capacity: 'finite' }))).toEqual([
      ['2027-03-03', '2027-03-03', ['Anna']],
      ['2027-03-04', '2027-03-04', ['Cara']],
    ]);
    // The view by person says what the view by stage says, and nobody is over.
    for (const day of ['2027-03-01', '2027-03-02', '2027-03-03', '2027-03-04']) {
      const byStage = (await capacity('stage', day)).reduce((sum: number, s: any) => sum + s.time_planned, 0);
      const byPerson = await capacity('resource', day);
      expect(
        byPerson.reduce((sum: number, r: any) => sum + r.time_planned, 0),
        day,
      ).toBe(byStage);
      for (const person of byPerson) expect(person.time_planned, `${person.name} ${day}`).toBeLessThanOrEqual(person.time_available);
    }
  });

  it('infinite: the stage’s people, spread by their free time, without the capacity check', async () => {
    // 480 min a day on Welding, Mon 2027-03-08, three times: Cara (by name), then Dirk, who is
    // then the more free; then both are full, and the first by name gets it, over.
    const cards = [];
    for (let i = 0; i < 3; i++) {
      const weld = await createCollection(api, shop.id, acts, { Weld: 480 });
      cards.push(...(await assigned(await plan(api, weld.id, shop.id, { start: '2027-03-08', stage_id: shop.stages.Welding }))));
    }
    expect(cards).toEqual([
      ['2027-03-08', '2027-03-08', ['Cara']],
      ['2027-03-08', '2027-03-08', ['Dirk']],
      ['2027-03-08', '2027-03-08', ['Cara']],
    ]);
    const cara = (await capacity('resource', '2027-03-08')).find((r: any) => r.id === people.Cara);
    expect(cara).toMatchObject({ time_available: 480, time_planned: 960 });
  });

  it('a finite plan goes where one set of people has room in equal shares, so nobody goes over', async () => {
    // Press: Eva and Finn, 8 h each. Mon 2027-03-15 has Eva 120 min and Finn 360 min already:
    // 480 free on the stage, but one person has 360 at most, and two would take 240 each,
    // more than Finn's 120. So 480 min go on Tue, to one of them.
    const press = await createBoard(api, acts, { stages: [{ name: 'Pressing', activities: ['Cut'] }] });
    for (const name of ['Eva', 'Finn'])
      people[name] = await createResource(api, { name, board: { ids: press, percentages: { Pressing: 100 } } });
    for (const [name, minutes] of [
      ['Eva', 120],
      ['Finn', 360],
    ] as const) {
      const load = await createCollection(api, press.id, acts, { Cut: minutes });
      await plan(api, load.id, press.id, { start: '2027-03-15', resources: [people[name]] });
    }
    const next = await createCollection(api, press.id, acts, { Cut: 480 });
    expect(await assigned(await plan(api, next.id, press.id, { start: '2027-03-15', capacity: 'finite' }))).toEqual([
      ['2027-03-16', '2027-03-16', ['Eva']],
    ]);
  });

  it('the planner’s choice wins: resources in the plan, and those "Replan late…" keeps; cards without any get the stage’s people', async () => {
    const given = await createCollection(api, shop.id, acts, { Cut: 120 });
    const planned = await plan(api, given.id, shop.id, { start: '2027-03-05', capacity: 'finite', resources: [people.Dirk] });
    expect(await assigned(planned)).toEqual([['2027-03-05', '2027-03-05', ['Dirk']]]);
    // Planned before planning chose anyone: its card has nobody, and a replan gives it someone.
    const bare = await createCollection(api, shop.id, acts, { Cut: 120 });
    await api.inject('POST', `/v1/collection/${bare.id}/card`, {
      stage_id: shop.stages.Cutting,
      start_date: '2027-03-05',
      end_date: '2027-03-05',
      activities: [{ id: acts.Cut, time: 120 }],
    });
    const replan = await api.inject('POST', '/v1/command/replan_collections', {
      board_id: shop.id,
      collection_ids: [given.id, bare.id],
      start: '2027-03-05',
    });
    expect(replan.status, JSON.stringify(replan.body)).toBe(200);
    expect(await assigned(planned)).toEqual([['2027-03-05', '2027-03-05', ['Dirk']]]);
    // Fri: Anna and Ben both free all day; Anna by name.
    expect(await assigned(bare)).toEqual([['2027-03-05', '2027-03-05', ['Anna']]]);
  });
});

describe('planning errors', () => {
  let board: Awaited<ReturnType<typeof createBoard>>;
  let other: Awaited<ReturnType<typeof createBoard>>;
  beforeAll(async () => {
    board = await createBoard(api, acts, { stages: twoStages });
    other = await createBoard(api, acts, { stages: twoStages });
  });
  const planRaw = (collectionId: string, boardId: string, body?: unknown) =>
    api.inject('POST', `/v1/collection/${collectionId}/board/${boardId}`, body);

  it('reverse without a due date and without end is a 422 on end, and plans nothing', async () => {
    const collection = await createCollection(api, board.id, acts, { Cut: 480 });
    const res = await planRaw(collection.id, board.id, { reverse: true });
    expectFieldErrors(res, ['end']);
    expect(res.body.errors[0].description).toMatch(/due date/);
    const after = (await api.inject('GET', `/v1/collection/${collection.id}?with=cards`)).body;
    expect(after).toMatchObject({ status: 'not_planned', cards: [] });
  });

  it('an unknown collection or board is a 404', async () => {
    const collection = await createCollection(api, board.id, acts, { Cut: 480 });
    const unknown = '01234567-89ab-7def-8123-456789abcdef';
    expect((await planRaw(unknown, board.id, {})).status).toBe(404);
    expect((await planRaw(collection.id, unknown, {})).status).toBe(404);
  });

  it('ids of another board, unknown ids and bad dates are 422s naming each field', async () => {
    const collection = await createCollection(api, board.id, acts, { Cut: 480 });
    const unknown = '01234567-89ab-7def-8123-456789abcdef';
    const res = await planRaw(collection.id, board.id, {
      start: '2024-02-30',
      reverse: 'yes',
      stage_id: other.stages.Cutting,
      status_id: other.statuses.Ready,
      force_stages: [board.stages.Welding, other.stages.Welding],
      resources: [unknown],
    });
    expectFieldErrors(res, ['start', 'reverse', 'stage_id', 'status_id', 'force_stages.1', 'resources.0']);
  });

  it('a body that is not an object is a 400', async () => {
    const collection = await createCollection(api, board.id, acts, { Cut: 480 });
    expectBadRequest(await planRaw(collection.id, board.id, [1, 2]));
  });

  it('a board without stages, without statuses, or without workdays is a 422, never a hang', async () => {
    const bare = (await api.inject('POST', '/v1/board', { name: 'Bare' })).body;
    const collection = await createCollection(api, board.id, acts, { Cut: 480 });
    expectFieldErrors(await planRaw(collection.id, bare.id, {}), ['board_id']);

    const noStatuses = (await api.inject('POST', '/v1/board', { name: 'No statuses', stages: [{ name: 'Only', priority: 0 }] })).body;
    expectFieldErrors(await planRaw(collection.id, noStatuses.id, {}), ['status_id']);

    const never = await createBoard(api, acts, {
      stages: twoStages,
      workdays: { '1': false, '2': false, '3': false, '4': false, '5': false, '6': false, '7': false },
    });
    expectFieldErrors(await planRaw(collection.id, never.id, { start: '2024-03-04' }), ['board_id']);
  });

  it('a resource that never works is a 422, never a hang', async () => {
    const idle = await createResource(api, {
      name: 'Idle',
      workdays: { '1': null, '2': null, '3': null, '4': null, '5': null, '6': null, '7': null },
    });
    const collection = await createCollection(api, board.id, acts, { Cut: 480 });
    const res = await planRaw(collection.id, board.id, { start: '2024-03-04', resources: [idle] });
    expectFieldErrors(res, ['board_id']);
    expect(res.body.errors[0].description).toMatch(/capacity/);
  });
});
