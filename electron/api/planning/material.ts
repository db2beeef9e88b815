/**
 * Material gates the plan (docs/API.md "Material"): a collection whose order rows are supplied
 * by rows of other orders (`supplies_order_rows`, a purchase row feeding a sales row) cannot
 * start the stage that needs that material before it is expected.
 *
 *  - A supplying row that is delivered (its own or its order's `delivered_date`) is there.
 *  - Otherwise it is expected on its order's `promised_date`, else its `desired_date`; without
 *    either its date is unknown: a finite plan refuses it, an infinite plan goes ahead with a
 *    warning.
 *  - The stage that needs it is the plan's first dependent stage, unless the receiving row's
 *    activity lands on a later stage: then that one.
 *
 * This is the one place that works out a collection's material earliest start: plans (finite,
 * infinite, forward, reverse, dry run, "Replan late…"), promise dates and the material read all
 * call it. Everything is read per call, so a purchase order whose date moves moves the earliest
 * start of the orders it feeds with it.
 */
import type { AwaitedMaterial } from '../../../shared/material.js';
import type { RecordReads } from '../../store/record-store.js';
import { tables } from '../tables.js';
import type { CardGroup, PlannedCard } from './plan.js';
import { spokenDate } from './finite-plan.js';

export type { AwaitedMaterial, MaterialBasis } from '../../../shared/material.js';

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/**
 * The material each collection waits for, by collection id: five reads for any number of
 * collections (their orders, the orders' rows, the supply links, the supplying rows, their
 * orders). A collection that waits for nothing has an empty list.
 */
export async function awaitedMaterial(reads: RecordReads, collectionIds: readonly string[]): Promise<Map<string, AwaitedMaterial[]>> {
  const byCollection = new Map<string, AwaitedMaterial[]>(collectionIds.map((id) => [id, []]));
  if (collectionIds.length === 0) return byCollection;
  const orders = await reads.getWhereIn(tables.order, 'collection_id', [...new Set(collectionIds)]);
  if (orders.length === 0) return byCollection;
  const collectionOf = new Map(orders.map((o) => [o.id, o.collection_id]));
  const rows = await reads.getWhereIn(
    tables.order_row,
    'order_id',
    orders.map((o) => o.id),
  );
  const links = await reads.getWhereIn(
    tables.order_row_supply,
    'receiver_row_id',
    rows.map((r) => r.id),
  );
  if (links.length === 0) return byCollection;
  const receivers = new Map(rows.map((r) => [r.id, r]));
  const suppliers = new Map(
    (
      await reads.getWhereIn(
        tables.order_row,
        'id',
        links.map((l) => l.supplier_row_id),
      )
    ).map((r) => [r.id, r]),
  );
  const supplierOrders = new Map(
    (
      await reads.getWhereIn(
        tables.order,
        'id',
        [...suppliers.values()].map((r) => r.order_id),
      )
    ).map((o) => [o.id, o]),
  );
  for (const link of links) {
    const receiver = receivers.get(link.receiver_row_id);
    const supplier = suppliers.get(link.supplier_row_id);
    // A link to a row that is gone (deleted since) supplies nothing.
    if (!receiver || !supplier) continue;
    // A stored row's order_id is its order's uuid, and the receiver's order was read by collection.
    const collectionId = collectionOf.get(receiver.order_id as string);
    const order = supplierOrders.get(supplier.order_id as string);
    if (!collectionId || !order) continue;
    if (text(supplier.delivered_date) || text(order.delivered_date)) continue;
    const promised = text(order.promised_date);
    const desired = text(order.desired_date);
    const list = byCollection.get(collectionId) ?? [];
    // One supplying row feeding two rows of the same activity waits once.
    if (list.some((m) => m.row_id === supplier.id && m.activity_id === receiver.activity_id)) continue;
    list.push({
      row_id: supplier.id,
      order_id: order.id,
      order_code: text(order.code) ?? text(order.external_ref) ?? text(order.description),
      item_id: supplier.item_id,
      expected: promised ?? desired,
      basis: promised ? 'promised_date' : desired ? 'desired_date' : null,
      activity_id: receiver.activity_id,
    });
    byCollection.set(collectionId, list);
  }
  for (const list of byCollection.values())
    list.sort((a, b) => (a.expected ?? '9999').localeCompare(b.expected ?? '9999') || (a.row_id < b.row_id ? -1 : 1));
  return byCollection;
}

/**
 * The stage of a plan's cards that needs material for `activityId`: the first dependent stage
 * (the first stage when all are independent), or the later stage the activity lands on.
 */
export function stageNeeding(groups: readonly CardGroup[], activityId: string | null): string | undefined {
  const first = Math.max(
    0,
    groups.findIndex((g) => !g.stage.independent),
  );
  const own = activityId === null ? -1 : groups.findIndex((g) => g.cards.some((card) => card.some((a) => a.id === activityId)));
  return groups[own > first ? own : first]?.stage.id;
}

/** What the material says about one plan: per stage, the day it may start; and what has no date. */
export interface MaterialGates {
  /** Stage id → the first day its cards may start (the latest expected date of its material). */
  gates: Map<string, string>;
  /** Stage id → the material behind its gate, latest first. */
  waiting: Map<string, AwaitedMaterial[]>;
  /** Material whose date is unknown. */
  unknown: AwaitedMaterial[];
}

export function materialGates(awaited: readonly AwaitedMaterial[], groups: readonly CardGroup[]): MaterialGates {
  const gates = new Map<string, string>();
  const waiting = new Map<string, AwaitedMaterial[]>();
  const unknown: AwaitedMaterial[] = [];
  for (const material of awaited) {
    if (material.expected === null) {
      unknown.push(material);
      continue;
    }
    const stageId = stageNeeding(groups, material.activity_id);
    if (stageId === undefined) continue;
    const gate = gates.get(stageId);
    if (gate === undefined || material.expected > gate) gates.set(stageId, material.expected);
    waiting.set(stageId, [material, ...(waiting.get(stageId) ?? [])]);
  }
  return { gates, waiting, unknown };
}

/** How a planner names material: "PO-123" (its order's code), else the row; why-late.ts names it so too. */
export function materialName(material: AwaitedMaterial): string {
  return material.order_code ?? `order row ${material.row_id}`;
}

/** Why a finite plan refuses, and what an infinite one warns of, for material without a date. */
export function unknownMaterialMessage(unknown: readonly AwaitedMaterial[]): string {
  const names = [...new Set(unknown.map(materialName))].join(', ');
  return `Waiting for ${names}, date unknown: give the supplying order a promised, desired or delivered date`;
}

/** "Waiting for PO-123, expected Tue 15 Dec": what the planner reads for one stage's material. */
export function waitingMessage(waiting: readonly AwaitedMaterial[]): string {
  const latest = waiting[0]!;
  return `Waiting for ${materialName(latest)}, expected ${spokenDate(latest.expected!)}`;
}

/** The cards of a plan that start before their stage's material is expected. */
export function cardsBeforeMaterial<C extends Pick<PlannedCard, 'stageId' | 'start_date'>>(
  cards: readonly C[],
  gates: ReadonlyMap<string, string>,
): C[] {
  return cards.filter((card) => {
    const gate = gates.get(card.stageId);
    return gate !== undefined && card.start_date < gate;
  });
}
