import { defineResource, idField, nestedList, timestampField, type RecordOf } from '../fields.js';

/** A named set of resources (a team, a machine park) for capacity (docs/API.md "Resources and paths"). */
export const groupSpec = defineResource({
  name: 'group',
  title: 'Group',
  fields: {
    id: idField,
    name: { type: 'string', required: true, maxLength: 150 },
    resources: nestedList('Member resources as [{id}].'),
    created_at: timestampField,
    updated_at: timestampField,
  },
});
export type Group = RecordOf<typeof groupSpec>;

export const groupResourceSpec = defineResource({
  name: 'group_resource',
  title: 'GroupResource',
  fields: {
    id: idField,
    group_id: { type: 'uuid', required: true },
    resource_id: { type: 'uuid', required: true },
    created_at: timestampField,
    updated_at: timestampField,
  },
});
