import { defineResource, externalRefField, idField, timestampField, type InputOf, type RecordOf } from '../fields.js';

/**
 * A delivery or work address an order points at. The public record names the resource but
 * not its fields; these are ours, documented in docs/API.md "Resources and paths".
 */
export const addressSpec = defineResource({
  name: 'address',
  title: 'Address',
  fields: {
    id: idField,
    name: { type: 'string', nullable: true, maxLength: 150 },
    street1: { type: 'string', nullable: true, maxLength: 150 },
    street2: { type: 'string', nullable: true, maxLength: 150 },
    postal_code: { type: 'string', nullable: true, maxLength: 20 },
    city: { type: 'string', nullable: true, maxLength: 100 },
    country: { type: 'string', nullable: true, maxLength: 100 },
    latitude: { type: 'number', nullable: true, minimum: -90, maximum: 90 },
    longitude: { type: 'number', nullable: true, minimum: -180, maximum: 180 },
    relation_id: { type: 'uuid', nullable: true, references: 'relation' },
    external_ref: externalRefField,
    created_at: timestampField,
    updated_at: timestampField,
  },
});

export type Address = RecordOf<typeof addressSpec>;
export type AddressInput = InputOf<typeof addressSpec>;
