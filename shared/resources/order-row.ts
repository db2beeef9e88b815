import {
  defineResource,
  externalRefField,
  idField,
  nestedList,
  quantityField,
  timestampField,
  type InputOf,
  type RecordOf,
} from '../fields.js';

/** Units whose quantity converts to planned minutes (docs/API.md "Orders and their collection"). */
export const timeUnits = ['minutes', 'hours', 'days'] as const;
/** A row counted in pieces plans quantity × the activity's default duration (docs/API.md "Order row units"). */
export const pieceUnit = 'pieces';
/** The units the screen offers: those that plan work. Other texts are kept but plan nothing. */
export const planningUnits = [...timeUnits, pieceUnit] as const;
export type PlanningUnit = (typeof planningUnits)[number];
/** Hours one day counts for: the public docs' rule, days × 3600 minutes (docs/API.md "Orders and their collection"). */
export const hoursPerDay = 60;

/** One line of an order (docs/API.md "Resources and paths"); always belongs to an order. */
export const orderRowSpec = defineResource({
  name: 'order_row',
  title: 'OrderRow',
  fields: {
    id: idField,
    order_id: { type: 'uuid', readOnly: true, description: 'Set from the path (or the order it is written inside).' },
    code: { type: 'string', nullable: true, maxLength: 100 },
    description: { type: 'string', nullable: true, maxLength: 255 },
    item_id: { type: 'uuid', nullable: true, references: 'item' },
    activity_id: { type: 'uuid', nullable: true, references: 'activity' },
    transaction: { type: 'string', nullable: true, maxLength: 36 },
    position: { type: 'integer', nullable: true, minimum: 0, description: 'Order within the order; new rows go last when not given.' },
    type: { type: 'string', nullable: true, maxLength: 50 },
    unit: {
      type: 'string',
      nullable: true,
      maxLength: 25,
      description: 'minutes, hours and days convert quantity to planned minutes; pieces take the activity default duration each.',
    },
    item_code: { type: 'string', nullable: true, maxLength: 50 },
    reserved: quantityField,
    quantity: quantityField,
    quantity_delivered: quantityField,
    quantity_backorder: quantityField,
    quantity_original: quantityField,
    quantity_scrapped: {
      ...quantityField,
      description: 'Pieces scrapped, as the floor reports them (docs/API.md "The floor"); what was made counts in quantity_delivered.',
    },
    status: { type: 'string', nullable: true, maxLength: 25 },
    delivered_date: { type: 'date', nullable: true },
    resource_ref: { type: 'string', nullable: true, maxLength: 255 },
    external_ref: externalRefField,
    supplies_order_rows: nestedList('Rows of other orders this row supplies, as [{id}].'),
    created_at: timestampField,
    updated_at: timestampField,
  },
});

export type OrderRow = RecordOf<typeof orderRowSpec>;
export type OrderRowInput = InputOf<typeof orderRowSpec>;

/** Link: one order row supplies another (a purchase row feeding a sales row). */
export const orderRowSupplySpec = defineResource({
  name: 'order_row_supply',
  title: 'OrderRowSupply',
  fields: {
    id: idField,
    supplier_row_id: { type: 'uuid', required: true, references: 'order_row' },
    receiver_row_id: { type: 'uuid', required: true, references: 'order_row' },
    supplier_order_id: { type: 'uuid', readOnly: true },
    created_at: timestampField,
    updated_at: timestampField,
  },
});
