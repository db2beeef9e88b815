import { defineResource, externalRefField, idField, timestampField, type InputOf, type RecordOf } from '../fields.js';

/** A stock location orders ship from or to (docs/API.md "Resources and paths"). */
export const warehouseSpec = defineResource({
  name: 'warehouse',
  title: 'Warehouse',
  fields: {
    id: idField,
    name: { type: 'string', required: true, maxLength: 150 },
    code: { type: 'string', nullable: true, maxLength: 50 },
    external_ref: externalRefField,
    created_at: timestampField,
    updated_at: timestampField,
  },
});

export type Warehouse = RecordOf<typeof warehouseSpec>;
export type WarehouseInput = InputOf<typeof warehouseSpec>;
