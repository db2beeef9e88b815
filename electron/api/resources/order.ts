import { orderSpec } from '../../../shared/resources/order.js';
import type { ResourceModule } from '../resource.js';
import { checkOrderCollection, createOrderCollection, presentOrderBoards, syncOrderCollection } from './order-collection.js';
import { keepFirstPromise } from './order-promise.js';
import { emptyOrderProblems } from './order-work.js';
import { tables } from '../tables.js';

export const orderModule: ResourceModule = {
  spec: orderSpec,
  table: tables.order,
  path: '/order',
  relations: {
    order_rows: { kind: 'hasMany', target: 'order_row', foreignKey: 'order_id', owned: true },
    address: { kind: 'belongsTo', target: 'address', foreignKey: 'address_id' },
    item: { kind: 'belongsTo', target: 'item', foreignKey: 'item_id' },
    collection: { kind: 'belongsTo', target: 'collection', foreignKey: 'collection_id' },
    project: { kind: 'belongsTo', target: 'project', foreignKey: 'project_id' },
    relation: { kind: 'belongsTo', target: 'relation', foreignKey: 'relation_id' },
    warehouse: { kind: 'belongsTo', target: 'warehouse', foreignKey: 'warehouse_id' },
    /** Rows of other orders that this order's rows supply. */
    supplies_order_rows: {
      kind: 'manyToMany',
      target: 'order_row',
      link: 'order_row_supply',
      ownerKey: 'supplier_order_id',
      targetKey: 'receiver_row_id',
    },
  },
  rules: {
    async check(ctx, tx, values, current, _parent, input) {
      keepFirstPromise(values, current);
      return [...emptyOrderProblems(ctx, current, input), ...(await checkOrderCollection(ctx, tx, values, current))];
    },
    async afterWrite(_ctx, tx, order, op, input, previous) {
      // undefined: board_id not sent; null: the shared backlog.
      const board = input.board_id as string | null | undefined;
      if (op === 'create') await createOrderCollection(tx, order, board);
      else await syncOrderCollection(tx, order, previous, board);
    },
    present: presentOrderBoards,
  },
};
