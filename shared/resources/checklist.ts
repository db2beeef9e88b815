import { defineResource, idField, nestedList, timestampField, type RecordOf } from '../fields.js';

/** A checklist on a collection, or on one of its cards (docs/API.md). */
export const checklistSpec = defineResource({
  name: 'checklist',
  title: 'Checklist',
  fields: {
    id: idField,
    collection_id: { type: 'uuid', readOnly: true },
    card_id: { type: 'uuid', nullable: true, references: 'card' },
    board_checklist_id: {
      type: 'uuid',
      nullable: true,
      references: 'board_checklist',
      description: 'Template to copy the name and items from.',
    },
    name: { type: 'string', maxLength: 150, description: 'Required unless a template gives it.' },
    editable: { type: 'boolean', default: true },
    position: { type: 'integer', minimum: 0, default: 0 },
    external_ref: { type: 'string', nullable: true, blankIsNull: true, maxLength: 255 },
    items: nestedList('Items, writable inline.'),
    created_at: timestampField,
    updated_at: timestampField,
  },
});
export type Checklist = RecordOf<typeof checklistSpec>;

export const checklistItemSpec = defineResource({
  name: 'checklist_item',
  title: 'ChecklistItem',
  fields: {
    id: idField,
    checklist_id: { type: 'uuid', readOnly: true },
    description: { type: 'string', required: true, maxLength: 500 },
    position: { type: 'integer', minimum: 0, default: 0 },
    checked: { type: 'boolean', default: false },
    checked_at: { type: 'datetime', nullable: true, readOnly: true },
    created_at: timestampField,
    updated_at: timestampField,
  },
});
export type ChecklistItem = RecordOf<typeof checklistItemSpec>;
