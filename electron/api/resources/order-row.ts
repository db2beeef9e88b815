import { orderRowSpec, orderRowSupplySpec } from '../../../shared/resources/order-row.js';
import type { StoredRecord } from '../../../shared/fields.js';
import type { RequestContext, ResourceModule } from '../resource.js';
import { orderModule } from './order.js';
import { syncOrderCollection } from './order-collection.js';
import { orderRowWorkProblems } from './order-work.js';
import { tables } from '../tables.js';
import type { RecordWrites } from '../../store/record-store.js';

export const orderRowSupplyModule: ResourceModule = { spec: orderRowSupplySpec, table: tables.order_row_supply };

/** A row change re-syncs the collection's activities (the order itself did not change). */
async function resyncOrder(_ctx: RequestContext, tx: RecordWrites, row: StoredRecord): Promise<void> {
  // A stored row's order_id is its order's uuid.
  const order = await tx.get(tables.order, row.order_id as string);
  if (order) await syncOrderCollection(tx, order, undefined);
}

export const orderRowModule: ResourceModule = {
  spec: orderRowSpec,
  table: tables.order_row,
  path: '/order/:order_id/row',
  parents: [{ param: 'order_id', field: 'order_id', module: () => orderModule }],
  relations: {
    order: { kind: 'belongsTo', target: 'order', foreignKey: 'order_id' },
    item: { kind: 'belongsTo', target: 'item', foreignKey: 'item_id' },
    activity: { kind: 'belongsTo', target: 'activity', foreignKey: 'activity_id' },
    supplies_order_rows: {
      kind: 'manyToMany',
      target: 'order_row',
      link: 'order_row_supply',
      ownerKey: 'supplier_row_id',
      targetKey: 'receiver_row_id',
      ownerCopy: { supplier_order_id: 'order_id' },
    },
    receives_order_rows: {
      kind: 'manyToMany',
      target: 'order_row',
      link: 'order_row_supply',
      ownerKey: 'receiver_row_id',
      targetKey: 'supplier_row_id',
    },
  },
  rules: {
    check: orderRowWorkProblems,
    async afterWrite(ctx, tx, row) {
      // New rows without a position go last.
      if (row.position === null) {
        const siblings = await tx.getWhereIn(tables.order_row, 'order_id', [row.order_id]);
        const last = Math.max(-1, ...siblings.map((r) => (typeof r.position === 'number' ? r.position : -1)));
        await tx.update(tables.order_row, row.id, { position: last + 1 });
      }
      await resyncOrder(ctx, tx, row);
    },
    afterDelete: resyncOrder,
  },
};
