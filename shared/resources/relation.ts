import { defineResource, externalRefField, idField, timestampField, type InputOf, type RecordOf } from '../fields.js';

/** A customer or supplier (docs/API.md "Resources and paths"). */
export const relationSpec = defineResource({
  name: 'relation',
  title: 'Relation',
  fields: {
    id: idField,
    name: { type: 'string', required: true, maxLength: 150 },
    type: { type: 'string', nullable: true, maxLength: 50, description: 'Free text, e.g. customer or supplier.' },
    description: { type: 'string', nullable: true, maxLength: 65535 },
    email: { type: 'string', nullable: true, maxLength: 150, pattern: '^[^\\s@]+@[^\\s@]+$' },
    phone: { type: 'string', nullable: true, maxLength: 50 },
    fax: { type: 'string', nullable: true, maxLength: 50 },
    website: { type: 'string', nullable: true, maxLength: 255 },
    note: { type: 'string', nullable: true, maxLength: 65535 },
    external_ref: externalRefField,
    created_at: timestampField,
    updated_at: timestampField,
  },
});

export type RelationRecord = RecordOf<typeof relationSpec>;
export type RelationInput = InputOf<typeof relationSpec>;
