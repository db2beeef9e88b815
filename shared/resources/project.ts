import { defineResource, externalRefField, idField, timestampField, type InputOf, type RecordOf } from '../fields.js';

/** A customer project that orders belong to (docs/API.md "Project"). */
export const projectSpec = defineResource({
  name: 'project',
  title: 'Project',
  fields: {
    id: idField,
    name: { type: 'string', required: true, maxLength: 150 },
    description: { type: 'string', nullable: true, maxLength: 65535 },
    code: { type: 'string', nullable: true, maxLength: 100 },
    transaction: { type: 'string', nullable: true, maxLength: 36 },
    external_ref: externalRefField,
    created_at: timestampField,
    updated_at: timestampField,
  },
});

export type Project = RecordOf<typeof projectSpec>;
export type ProjectInput = InputOf<typeof projectSpec>;
