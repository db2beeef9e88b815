import { defineResource, idField, timestampField, type InputOf, type RecordOf } from '../fields.js';

/**
 * How one user handled one item of the exception inbox (docs/API.md "Exceptions"): seen, or
 * snoozed until a day. One record per user and exception key, a record like any other, so it
 * syncs to that user's other computers and the team server. The inbox leaves a handled item
 * out for that user only; an item that changes kind or record has another key and comes back.
 */
export const exceptionHandlingSpec = defineResource({
  name: 'exception_handling',
  title: 'ExceptionHandling',
  unique: [['user_id', 'exception_key']],
  fields: {
    id: idField,
    user_id: {
      type: 'uuid',
      references: 'user',
      onDelete: 'cascade',
      description: 'Whose handling this is; a signed-in user writes only their own (left out: the caller).',
    },
    exception_key: {
      type: 'string',
      required: true,
      maxLength: 255,
      description: "The exception's `key`, as GET /v1/exception answers it.",
    },
    seen: { type: 'boolean', default: false, description: 'Marked as seen: left out of the inbox until it changes.' },
    snoozed_until: {
      type: 'date',
      nullable: true,
      description: 'Left out of the inbox up to and including this day.',
    },
    created_at: timestampField,
    updated_at: timestampField,
  },
});
export type ExceptionHandling = RecordOf<typeof exceptionHandlingSpec>;
export type ExceptionHandlingInput = InputOf<typeof exceptionHandlingSpec>;
