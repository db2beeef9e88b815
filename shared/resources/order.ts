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

export const orderTypes = ['Production', 'Project', 'Purchase', 'Quotation', 'Sales'] as const;

/**
 * A sales, purchase or production order from an ERP (docs/API.md). Creating one
 * creates its collection; `order_rows` may be written inline.
 */
export const orderSpec = defineResource({
  name: 'order',
  title: 'Order',
  // Orders are unique by external_ref together with type and sub_type (docs/API.md).
  unique: [['external_ref', 'type', 'sub_type']],
  fields: {
    id: idField,
    project_id: { type: 'uuid', nullable: true, references: 'project' },
    warehouse_id: { type: 'uuid', nullable: true, references: 'warehouse' },
    relation_id: { type: 'uuid', nullable: true, references: 'relation' },
    item_id: { type: 'uuid', nullable: true, references: 'item' },
    address_id: { type: 'uuid', nullable: true, references: 'address' },
    collection_id: {
      type: 'uuid',
      nullable: true,
      references: 'collection',
      description:
        'The collection the order keeps up to date: one it made, or an existing one named when the order is created (it cannot change afterwards).',
    },
    // The public API's clients name the board an order's collection goes to; it is the
    // collection's own board_id, read and written through the order (docs/API.md "Orders and their collection").
    board_id: {
      type: 'uuid',
      nullable: true,
      virtual: true,
      references: 'board',
      description: 'The board of its collection: whose backlog it waits in until planned. Null: the shared backlog.',
    },
    meta: { type: 'json', shape: 'object', nullable: true },
    transaction: { type: 'string', nullable: true, maxLength: 36 },
    code: { type: 'string', nullable: true, maxLength: 100 },
    type: { type: 'enum', enum: orderTypes, nullable: true },
    sub_type: {
      type: 'string',
      nullable: true,
      maxLength: 25,
      description: 'Send "none" rather than null to take part in the external_ref uniqueness check.',
    },
    status: { type: 'string', nullable: true, maxLength: 10 },
    note: { type: 'string', nullable: true, maxLength: 65535 },
    description: { type: 'string', nullable: true, maxLength: 150 },
    contact: { type: 'string', nullable: true, maxLength: 100 },
    date: { type: 'date', nullable: true },
    promised_date: { type: 'date', nullable: true },
    first_promised_date: {
      type: 'date',
      nullable: true,
      readOnly: true,
      description:
        'The promised_date the order first got, kept by the server and never changed after: what promise reliability is measured against (docs/API.md "KPIs").',
    },
    desired_date: { type: 'date', nullable: true },
    delivered_date: { type: 'date', nullable: true },
    quantity: quantityField,
    relation_ref: { type: 'string', nullable: true, maxLength: 255 },
    external_ref: {
      ...externalRefField,
      description: 'Unique together with type and sub_type; a null type or sub_type takes no part in the check.',
    },
    external_url: { type: 'string', nullable: true, maxLength: 2048, pattern: '^https?://\\S+$' },
    order_rows: nestedList('The order rows, writable inline (deep insertion).'),
    created_at: timestampField,
    updated_at: timestampField,
  },
});

export type Order = RecordOf<typeof orderSpec>;
export type OrderInput = InputOf<typeof orderSpec>;
