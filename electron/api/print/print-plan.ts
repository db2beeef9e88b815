/**
 * What the printed plan shows (docs/API.md "Printing the plan"): a board's stages in their
 * order, or the one stage asked for, and every card of those stages that touches the period,
 * each under its display name (shared/card-display-name.ts) as the rest of the app names it,
 * with what a wall plan must say besides: what the card is for (its order's description and
 * customer), for how long (its activities' hours) and who does it (its resources). And per day
 * whether the board works then and which company holiday falls on it.
 */
import { eachDate, isoWeekday } from '../../../shared/dates.js';
import { holidayNamesByDay } from '../../../shared/holiday-days.js';
import type { StoredRecord } from '../../../shared/fields.js';
import type { RequestContext } from '../resource.js';
import { tables } from '../tables.js';
import { cardNames } from '../time-tracking/report-names.js';
import type { DayFacts, PlanPrint } from './plan-pdf.js';

export interface PrintRequest {
  start: string;
  end: string;
  stageId?: string;
}

export async function planToPrint(ctx: RequestContext, board: StoredRecord, request: PrintRequest, made: Date): Promise<PlanPrint> {
  const stages = (await ctx.records.getWhereIn(tables.stage, 'board_id', [board.id]))
    .filter((stage) => !request.stageId || stage.id === request.stageId)
    .sort((a, b) => a.priority - b.priority || a.id.localeCompare(b.id));
  const stageIds = new Set(stages.map((stage) => stage.id));
  const cards = (await ctx.records.getWhereIn(tables.card, 'board_id', [board.id])).filter(
    (card): card is typeof card & { start_date: string; end_date: string } =>
      stageIds.has(card.stage_id) &&
      typeof card.start_date === 'string' &&
      typeof card.end_date === 'string' &&
      card.start_date <= request.end &&
      card.end_date >= request.start,
  );
  const names = await cardNames(ctx, cards);
  const details = await cardDetails(ctx, cards);
  const boardName = String(board.name ?? '');
  return {
    board: boardName,
    scope: request.stageId ? String(stages[0]?.name ?? '') : 'whole board',
    start: request.start,
    end: request.end,
    stages: stages.map((stage) => ({ id: stage.id, name: String(stage.name ?? '') })),
    cards: cards.map((card) => ({
      id: card.id,
      name: names.get(card.id) ?? '',
      details: details.get(card.id) ?? [],
      stage_id: card.stage_id,
      start_date: card.start_date,
      end_date: card.end_date,
    })),
    calendar: await calendarOf(ctx, board, request),
    made,
  };
}

/** "6 h", "1.5 h", "45 min": a card's planned work as the planboard writes hours. */
export function workText(minutes: number): string {
  if (minutes < 60) return `${Math.round(minutes)} min`;
  return `${Math.round((minutes / 60) * 10) / 10} h`;
}

/**
 * Per card, the lines under its name: its collection's description and customer (an order's
 * "3x Oak table · Jansen Interiors"), then its hours and the resources assigned to it
 * ("6 h · Anna, Bram"). A part nobody filled in is left out, and a line with nothing in it.
 */
async function cardDetails(ctx: RequestContext, cards: readonly StoredRecord[]): Promise<Map<string, string[]>> {
  const ids = cards.map((card) => card.id);
  const collections = new Map(
    // Every card lives in a collection (its path): collection_id is a uuid column that is never null.
    (await ctx.records.getWhereIn(tables.collection, 'id', [...new Set(cards.map((card) => card.collection_id as string))])).map((c) => [
      c.id,
      c,
    ]),
  );
  const minutes = new Map<string, number>();
  for (const link of await ctx.records.getWhereIn(tables.card_activity, 'card_id', ids))
    minutes.set(link.card_id, (minutes.get(link.card_id) ?? 0) + (Number(link.time) || 0));
  const resourceLinks = await ctx.records.getWhereIn(tables.card_resource, 'card_id', ids);
  const resources = new Map(
    (
      await ctx.records.getWhereIn(
        tables.resource,
        'id',
        resourceLinks.map((link) => link.resource_id),
      )
    ).map((r) => [r.id, String(r.name ?? '')]),
  );
  const people = new Map<string, string[]>();
  for (const link of resourceLinks) {
    const name = resources.get(link.resource_id);
    if (name) people.set(link.card_id, [...(people.get(link.card_id) ?? []), name]);
  }
  const line = (...parts: (string | null | undefined)[]) => parts.filter((part): part is string => Boolean(part?.trim())).join(' · ');
  return new Map(
    cards.map((card) => {
      // collection_id: never null (above); meta: a JSON object column, or null when nothing was kept in it.
      const collection = collections.get(card.collection_id as string);
      const meta = (collection?.meta ?? null) as Record<string, unknown> | null;
      const customer = typeof meta?.relation === 'string' ? meta.relation : null;
      const work = minutes.get(card.id);
      const lines = [
        // A collection's description is a nullable text column.
        line(collection?.description as string | null, customer),
        line(work ? workText(work) : null, (people.get(card.id) ?? []).sort((a, b) => a.localeCompare(b)).join(', ')),
      ];
      return [card.id, lines.filter(Boolean)];
    }),
  );
}

/**
 * Each day of the period: a workday of the board or not (its `workdays`; Monday to Friday for
 * a board without them), and the company holiday on it, named by its description (several,
 * joined): a whole-day company holiday for everyone, as the planboard names it
 * (shared/holiday-days.ts), and a `holiday` deviation copied onto resources before holidays
 * belonged to the company (docs/API.md "Absences and holidays"), named once however many
 * resources have it.
 */
async function calendarOf(ctx: RequestContext, board: StoredRecord, request: PrintRequest): Promise<Record<string, DayFacts>> {
  const workdays = (board.workdays ?? null) as Record<string, boolean> | null;
  const { rows } = await ctx.records.list(tables.schedule_deviation, { match: { type: 'holiday' }, limit: 1_000_000, offset: 0 });
  const company = holidayNamesByDay((await ctx.records.list(tables.company_holiday, { limit: 1_000_000, offset: 0 })).rows);
  const calendar: Record<string, DayFacts> = {};
  for (const date of eachDate(request.start, request.end)) {
    const weekday = String(isoWeekday(date));
    const holidays = [
      ...new Set([
        ...rows
          .filter((deviation) => deviation.start_date <= date && (deviation.end_date ?? deviation.start_date) >= date)
          .map((deviation) => String(deviation.description ?? '').trim() || 'Holiday'),
        ...(company.get(date) ?? []),
      ]),
    ].sort();
    calendar[date] = {
      workday: workdays ? workdays[weekday] === true : Number(weekday) < 6,
      holiday: holidays.length > 0 ? holidays.join(', ') : null,
    };
  }
  return calendar;
}
