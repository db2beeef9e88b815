/**
 * `POST /v1/collection/{collection_id}/card/{id}/split` divides a card in two; the new card
 * takes the remainder and records `split_from_id`, so both stay linked.
 *
 * Body: `{date}` — the original ends on the last workday before `date` and the new card runs
 * from `date` to the original end; minutes are divided in proportion to the workdays — or
 * `{share}` (0 < share < 1) — the original keeps that share of the minutes and of the
 * workdays (at least one day each). The new card gets the same stage, status, labels and
 * resources, and a rank right after the original.
 */
import type { BodyOf } from '../../../shared/operation.js';
import type { splitCardOperation } from '../../../shared/operations/planning.js';
import { ApiError } from '../errors.js';
import type { StoredRecord } from '../../../shared/fields.js';
import { findRecord } from '../records.js';
import { refreshCardFields, type Card } from './card-fields.js';
import { recomputeCollection } from './collection-state.js';
import { rankBetween } from './rank.js';
import { countWorkdays, shiftWorkdays, workdayFrom } from './workdays.js';
import { readStageWeeks } from './stage-workdays.js';
import { moduleNamed } from '../registry.js';
import { tables } from '../tables.js';
import type { RecordWrites } from '../../store/record-store.js';

interface SplitAt {
  /** Last day of the original card. */
  firstEnd: string;
  /** First day of the new card. */
  secondStart: string;
  /** Share of the minutes the original keeps. */
  share: number;
}

/**
 * Where to split: a `date` (the new card's first day) or a `share` of the time the original
 * keeps, of the types shared/operations/planning.ts declares; checked here against the card.
 */
export type SplitRequest = BodyOf<typeof splitCardOperation>;

async function splitPoint(tx: RecordWrites, card: Record<string, unknown>, body: SplitRequest): Promise<SplitAt> {
  // A stored card's dates are YYYY-MM-DD text or null (shared/resources/card.ts).
  const start = card.start_date as string | null;
  const end = card.end_date as string | null;
  if (!start || !end) throw ApiError.rule('date', 'only a card with a start and an end date can be split');
  // A stored card's board_id is a uuid.
  const board = await tx.get(tables.board, card.board_id as string);
  if (!board) throw ApiError.rule('date', 'the card is on no board');
  // Counted by the card's stage's workdays (stage-workdays.ts); a stored card's stage_id is a
  // uuid (shared/resources/card.ts).
  const calendar = (await readStageWeeks(tx, board)).calendarOf(card.stage_id as string);
  const days = Math.max(1, countWorkdays(calendar, start, end));
  if (body.date !== undefined) {
    const secondStart = workdayFrom(calendar, body.date);
    if (secondStart <= start || secondStart > end) {
      throw ApiError.rule('date', `date must be a workday after ${start} and no later than ${end}`);
    }
    const firstEnd = workdayFrom(calendar, shiftWorkdays(calendar, secondStart, -1), -1);
    return { firstEnd, secondStart, share: countWorkdays(calendar, start, firstEnd) / days };
  }
  const share = body.share;
  if (share === undefined || !(share > 0 && share < 1)) {
    throw ApiError.rule('share', 'send a date (YYYY-MM-DD) or a share between 0 and 1 (exclusive)');
  }
  if (days === 1) return { firstEnd: start, secondStart: start, share };
  const firstDays = Math.min(days - 1, Math.max(1, Math.round(days * share)));
  const firstEnd = shiftWorkdays(calendar, workdayFrom(calendar, start), firstDays - 1);
  return { firstEnd, secondStart: shiftWorkdays(calendar, firstEnd, 1), share };
}

/** Splits the card in the transaction of the request's command (`tx`, either engine). */
export async function splitCardRecords(
  tx: RecordWrites,
  collectionId: string,
  cardId: string,
  input: SplitRequest,
): Promise<StoredRecord[]> {
  const card = await findRecord(tx, moduleNamed('card'), cardId, { collection_id: collectionId });
  const at = await splitPoint(tx, card, input);
  const nextRank = (await tx.getWhereIn(tables.card, 'stage_id', [card.stage_id]))
    .map((c) => c.rank)
    // A stored card's rank is text (shared/resources/card.ts).
    .filter((r) => r > (card.rank as string))
    .sort()[0];
  const copy = await tx.insert(tables.card, {
    ...card,
    id: undefined,
    created_at: undefined,
    updated_at: undefined,
    start_date: at.secondStart,
    // A stored card's rank is text (shared/resources/card.ts).
    rank: rankBetween(card.rank as string, nextRank ?? null),
    split_from_id: card.id,
    completed_at: null,
    external_ref: null,
  });
  await tx.update(tables.card, card.id, { end_date: at.firstEnd });
  for (const link of await tx.getWhereIn(tables.card_activity, 'card_id', [card.id])) {
    const kept = Math.round(link.time * at.share);
    await tx.update(tables.card_activity, link.id, { time: kept });
    await tx.insert(tables.card_activity, { card_id: copy.id, activity_id: link.activity_id, time: link.time - kept });
  }
  for (const link of await tx.getWhereIn(tables.card_label, 'card_id', [card.id])) {
    await tx.insert(tables.card_label, { card_id: copy.id, label_id: link.label_id });
  }
  for (const link of await tx.getWhereIn(tables.card_resource, 'card_id', [card.id])) {
    await tx.insert(tables.card_resource, { card_id: copy.id, resource_id: link.resource_id });
  }
  await refreshCardFields(tx, (await tx.get(tables.card, card.id))!);
  // A card inserted from a stored card's values is one (shared/resources/card.ts).
  await refreshCardFields(tx, copy as Card);
  await recomputeCollection(tx, collectionId);
  return [(await tx.get(tables.card, card.id))!, (await tx.get(tables.card, copy.id))!];
}
