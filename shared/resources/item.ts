import { defineResource, externalRefField, idField, timestampField, type InputOf, type RecordOf } from '../fields.js';

/** A product or material that orders and activities refer to (docs/API.md "Resources and paths"). */
export const itemSpec = defineResource({
  name: 'item',
  title: 'Item',
  fields: {
    id: idField,
    description: { type: 'string', required: true, maxLength: 150 },
    code: { type: 'string', nullable: true, maxLength: 50 },
    type: { type: 'string', nullable: true, maxLength: 50 },
    stockmanagement: { type: 'boolean', default: false },
    unit: { type: 'string', nullable: true, maxLength: 25 },
    note: { type: 'string', nullable: true, maxLength: 65535 },
    location: { type: 'string', nullable: true, maxLength: 100 },
    external_ref: externalRefField,
    created_at: timestampField,
    updated_at: timestampField,
  },
});

export type Item = RecordOf<typeof itemSpec>;
export type ItemInput = InputOf<typeof itemSpec>;
