import { defineResource, idField, jsonField, timestampField, type RecordOf } from '../fields.js';

/** A comment on a collection or one of its cards; `parent_id` makes threads (docs/API.md "Resources and paths"). */
export const commentSpec = defineResource({
  name: 'comment',
  title: 'Comment',
  fields: {
    id: idField,
    collection_id: { type: 'uuid', readOnly: true },
    card_id: { type: 'uuid', nullable: true, references: 'card' },
    parent_id: { type: 'uuid', nullable: true, references: 'comment' },
    text: { type: 'string', required: true, maxLength: 65535 },
    user_id: { type: 'uuid', nullable: true, readOnly: true, description: 'The signed-in author; null for API keys.' },
    user_mentions: jsonField<string[]>()({ type: 'json', shape: 'array', default: [], description: 'Mentioned user ids.' }),
    created_at: timestampField,
    updated_at: timestampField,
  },
});
export type Comment = RecordOf<typeof commentSpec>;
