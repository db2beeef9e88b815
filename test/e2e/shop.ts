/**
 * The shop the planning specs start from, made through the page's bridge (planner-page.ts) as
 * another client of the app would: board Shop with its entry status Ready and one stage (Work
 * unless told), the activities that stage allows, and the people who work on it full time. Each
 * spec tells its own story in its header; this file only makes the shop it names.
 */
import type { Page } from './fixtures.js';
import { addDays, testToday } from './dates.js';
import { bridgeApi } from './planner-page.js';

/** When the shop works: Monday to Friday, or every day of the week. */
export type ShopDays = 'weekdays' | 'every day';

const isoWeekdays = ['1', '2', '3', '4', '5', '6', '7'];

function isWorkday(days: ShopDays, weekday: string): boolean {
  return days === 'every day' || Number(weekday) <= 5;
}

export interface ShopPlan {
  days?: ShopDays;
  /** The one stage's name; Work unless told. */
  stage?: string;
  /** The activities (ids) the stage allows, first one first. */
  allows?: string[];
  /** A Done status, the board's exit, after Ready. */
  done?: boolean;
}

export interface Shop {
  boardId: string;
  stageId: string;
  /** The Done status, when the plan asked for one. */
  doneId: string | undefined;
  days: ShopDays;
}

/** An activity that people (resource type employee) do; answers its id. */
export async function newActivity(page: Page, description: string, skill?: string): Promise<string> {
  const made = await bridgeApi(page, 'POST', '/v1/activity', { description, resource_type: 'employee', ...(skill ? { skill } : {}) });
  return made.id;
}

export async function seedShop(page: Page, { days = 'weekdays', stage = 'Work', allows = [], done = false }: ShopPlan = {}): Promise<Shop> {
  const board = await bridgeApi(
    page,
    'POST',
    '/v1/board',
    {
      name: 'Shop',
      workdays: Object.fromEntries(isoWeekdays.map((weekday) => [weekday, isWorkday(days, weekday)])),
      statuses: [
        { name: 'Ready', priority: 0, entry: true, exit: false },
        ...(done ? [{ name: 'Done', priority: 1, entry: false, exit: true }] : []),
      ],
      stages: [{ name: stage, priority: 0, activities: allows.map((id, priority) => ({ id, priority })) }],
    },
    { with: 'stages,statuses' },
  );
  return {
    boardId: board.id,
    stageId: board.stages[0].id,
    doneId: board.statuses.find((status: { name: string }) => status.name === 'Done')?.id,
    days,
  };
}

/** Someone who works 8 h on each of the shop's workdays, all of it on its stage; answers the id. */
export async function seedWorker(page: Page, shop: Shop, name: string, skills?: string[]): Promise<string> {
  const made = await bridgeApi(page, 'POST', '/v1/resource', {
    name,
    workdays: Object.fromEntries(isoWeekdays.map((weekday) => [weekday, isWorkday(shop.days, weekday) ? 8 : null])),
    ...(skills ? { skills } : {}),
    boards: [{ id: shop.boardId, active: true, stages: [{ id: shop.stageId, percentage: 100, active: true }] }],
  });
  return made.id;
}

/** Shop (Mon–Fri), its stage Work allowing Cut, and Anna cutting 8 h a day on it. */
export async function seedCutShop(page: Page): Promise<Shop & { cutId: string }> {
  const cutId = await newActivity(page, 'Cut');
  const shop = await seedShop(page, { allows: [cutId] });
  await seedWorker(page, shop, 'Anna');
  return { ...shop, cutId };
}

/**
 * Paint full for four days ("what would it take?"): Shop, every day a workday, its stage Paint
 * allowing Painting; Cees paints 8 h every day, and a FILLER card of his takes all of Paint from
 * today (the run's fixed day) to today + 3.
 */
export async function seedFullPaint(page: Page): Promise<Shop & { paintingId: string; ceesId: string }> {
  const paintingId = await newActivity(page, 'Painting');
  const shop = await seedShop(page, { days: 'every day', stage: 'Paint', allows: [paintingId] });
  const ceesId = await seedWorker(page, shop, 'Cees');
  const filler = await bridgeApi(page, 'POST', '/v1/collection', { name: 'FILLER', board_id: shop.boardId });
  await bridgeApi(page, 'POST', `/v1/collection/${filler.id}/card`, {
    stage_id: shop.stageId,
    start_date: testToday,
    end_date: addDays(testToday, 3),
    activities: [{ id: paintingId, time: 1920 }],
    resources: [{ id: ceesId }],
  });
  return { ...shop, paintingId, ceesId };
}

/** An order's work on the shop's board: minutes of one activity, due when told. */
export interface Work {
  name: string;
  activityId: string;
  minutes: number;
  due?: string;
}

/** A collection of that work in the board's backlog; answers its id. */
export async function seedCollection(page: Page, boardId: string, work: Work): Promise<string> {
  const made = await bridgeApi(page, 'POST', '/v1/collection', {
    name: work.name,
    board_id: boardId,
    ...(work.due ? { due_date: work.due } : {}),
    activities: [{ id: work.activityId, time: work.minutes }],
  });
  return made.id;
}

/** The same collection planned from `start` as planning does by default (not finite); answers its id. */
export async function seedPlanned(page: Page, boardId: string, work: Work, start: string): Promise<string> {
  const id = await seedCollection(page, boardId, work);
  await bridgeApi(page, 'POST', `/v1/collection/${id}/board/${boardId}`, { start });
  return id;
}
