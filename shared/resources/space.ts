import { defineResource, idField, timestampField, type RecordOf } from '../fields.js';

/** A workspace grouping boards (docs/API.md "Resources and paths"). */
export const spaceSpec = defineResource({
  name: 'space',
  title: 'Space',
  fields: {
    id: idField,
    name: { type: 'string', required: true, maxLength: 150 },
    description: { type: 'string', nullable: true, maxLength: 65535 },
    created_at: timestampField,
    updated_at: timestampField,
  },
});
export type Space = RecordOf<typeof spaceSpec>;
