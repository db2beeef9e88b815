import { customFieldValues } from '../custom-fields.js';
import {
  defineResource,
  externalRefField,
  idField,
  limits,
  jsonField,
  nestedList,
  timestampField,
  type InputOf,
  type RecordOf,
} from '../fields.js';

export const collectionStatuses = ['planned', 'not_planned', 'ignored'] as const;
export const collectionProgress = ['open', 'partial', 'done'] as const;
export const collectionSourceTypes = ['custom', 'order', 'clone'] as const;

/**
 * A job waiting in the backlog or planned on a board as cards (docs/API.md "Planning"; 21
 * fields, plus the public API's extras: docs/API.md "Compatibility").
 */
export const collectionSpec = defineResource({
  name: 'collection',
  title: 'Collection',
  fields: {
    id: idField,
    name: { type: 'string', nullable: true, maxLength: 255 },
    description: { type: 'string', nullable: true, maxLength: 65535 },
    start: { type: 'date', nullable: true, readOnly: true, description: 'First day of its cards.' },
    end: { type: 'date', nullable: true, readOnly: true, description: 'Last day of its cards.' },
    due_date: { type: 'date', nullable: true },
    meta: { type: 'json', shape: 'object', nullable: true, readOnly: true, description: 'Free key/value data; filled from the order.' },
    position: {
      type: 'integer',
      nullable: true,
      readOnly: true,
      description: 'Always null: the public record does not say what it orders (docs/API.md "Planning").',
    },
    source_type: { type: 'enum', enum: collectionSourceTypes, readOnly: true, default: 'custom' },
    status: {
      type: 'enum',
      enum: collectionStatuses,
      default: 'not_planned',
      description: 'Clients may only switch between not_planned and ignored; planned is set by planning.',
    },
    progress: { type: 'enum', enum: collectionProgress, readOnly: true, default: 'open' },
    warnings: jsonField<string[]>()({ type: 'json', shape: 'array', readOnly: true, default: [] }),
    custom_fields: customFieldValues('collection'),
    board_id: {
      type: 'uuid',
      required: true,
      nullable: true,
      references: 'board',
      description: 'Required when a client creates one; null for a collection an order created that is not on a board yet.',
    },
    cover_image_url: { type: 'string', nullable: true, maxLength: 2048, pattern: '^https?://\\S+$' },
    cover_image_checksum: { type: 'string', nullable: true, writeOnly: true, pattern: '^[a-fA-F0-9]{64}$' },
    cover_image_signature: { type: 'string', nullable: true, readOnly: true },
    cover_image_bytes: { type: 'integer', nullable: true, readOnly: true, minimum: 0 },
    cover_color_hex: { type: 'string', nullable: true, pattern: '^#([A-Fa-f0-9]{3}){1,2}$' },
    external_ref: externalRefField,
    batch_id: { type: 'string', nullable: true, maxLength: 36 },
    plan_id: {
      type: 'uuid',
      nullable: true,
      readOnly: true,
      description:
        'Its latest plan: new each time it is planned (its cards carry it too); null again in the backlog or when its last card goes.',
    },
    labels: nestedList('Labels as [{id}].'),
    activities: nestedList('Estimated work as [{id, time}], time in minutes.'),
    cards: nestedList('The cards of the collection, writable inline.'),
    followers: nestedList('Users following it, as [{id}].'),
    created_at: timestampField,
    updated_at: timestampField,
  },
});

export type Collection = RecordOf<typeof collectionSpec>;
export type CollectionInput = InputOf<typeof collectionSpec>;

/** Link: a collection's estimated minutes of one activity. */
export const collectionActivitySpec = defineResource({
  name: 'collection_activity',
  title: 'CollectionActivity',
  fields: {
    id: idField,
    collection_id: { type: 'uuid', required: true },
    activity_id: { type: 'uuid', required: true },
    time: { type: 'integer', minimum: 0, maximum: limits.minutes, default: 0, description: 'Minutes.' },
    created_at: timestampField,
    updated_at: timestampField,
  },
});
