/**
 * Orders that plan real work (docs/API.md "Order row units" and "Empty orders"): an order is
 * named by a code or a description, and a row that plans work for an activity plans some, and
 * no more than a year of it. Refused with a 422 that names the field and the broken rule, so a
 * screen can say it in the planner's words. A replica's synced change was checked where it was
 * made, and is not judged again.
 */
import type { FieldProblem } from '../../../shared/errors.js';
import { limits } from '../../../shared/fields.js';
import { pieceUnit, planningUnits } from '../../../shared/resources/order-row.js';
import type { RequestContext } from '../resource.js';
import { pieceMinutesOf, rowMinutes } from './order-collection.js';
import type { RecordWrites } from '../../store/record-store.js';

/** Absent, null or only spaces; a value of the wrong type is not blank (its own 422 says so). */
const isBlank = (value: unknown): boolean => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/**
 * An order names itself by a code, a description or, for an integration's order, its
 * external_ref (the public API's clients create orders by that alone).
 */
export function emptyOrderProblems(
  ctx: RequestContext,
  current: Record<string, unknown> | undefined,
  input: Record<string, unknown> | undefined,
): FieldProblem[] {
  if (ctx.origin === 'sync') return [];
  const order = { ...current, ...input };
  if (!isBlank(order.code) || !isBlank(order.description) || !isBlank(order.external_ref)) return [];
  return [{ field: 'code', description: 'An order needs a code or a description', rule: 'codeOrDescription' }];
}

export async function orderRowWorkProblems(
  ctx: RequestContext,
  tx: RecordWrites,
  values: Record<string, unknown>,
  current: Record<string, unknown> | undefined,
): Promise<FieldProblem[]> {
  if (ctx.origin === 'sync') return [];
  const row = { ...current, ...values };
  if (typeof row.activity_id !== 'string' || typeof row.unit !== 'string' || typeof row.quantity !== 'number') return [];
  const unit = row.unit.toLowerCase();
  // Widened to test any text against the planning units.
  if (!(planningUnits as readonly string[]).includes(unit)) return [];
  const pieceMinutes = unit === pieceUnit ? await pieceMinutesOf(tx, row.activity_id) : 0;
  if (unit === pieceUnit && pieceMinutes <= 0) {
    return [{ field: 'unit', description: 'unit pieces plans no work: the activity has no default duration', rule: 'noWork' }];
  }
  // Unrounded: rows of one activity are summed before rounding (0.4 + 0.4 minutes is 1).
  const minutes = rowMinutes(unit, row.quantity, pieceMinutes);
  if (minutes <= 0) return [{ field: 'quantity', description: 'quantity plans no work: give more than 0', rule: 'noWork' }];
  if (minutes > limits.minutes) {
    return [
      {
        field: 'quantity',
        description: `quantity plans more than a year of work (${limits.minutes} minutes)`,
        rule: 'tooMuchWork',
        limit: limits.minutes,
      },
    ];
  }
  return [];
}
