import { defineResource, externalRefField, idField, timestampField, type RecordOf } from '../fields.js';

/**
 * A file on a collection or card (docs/API.md "Attachments"): uploaded (stored under its content
 * hash, `type: upload`) or a link (`type: external`, `file` is the URL).
 */
export const attachmentSpec = defineResource({
  name: 'attachment',
  title: 'Attachment',
  fields: {
    id: idField,
    collection_id: { type: 'uuid', readOnly: true },
    card_id: { type: 'uuid', nullable: true, references: 'card' },
    user_id: { type: 'uuid', nullable: true, readOnly: true },
    filename: { type: 'string', required: true, maxLength: 255 },
    file: { type: 'string', required: true, maxLength: 2048, description: 'The URL (a download path for uploads).' },
    type: { type: 'enum', enum: ['upload', 'external'], default: 'external' },
    content_type: { type: 'string', nullable: true, readOnly: true },
    bytes: { type: 'integer', nullable: true, readOnly: true },
    checksum: { type: 'string', nullable: true, readOnly: true, description: 'SHA-256 of the content.' },
    signature: { type: 'string', nullable: true, readOnly: true },
    // A thumbnail and its file data (docs/API.md "Attachments"). This server makes no
    // thumbnails, so they stay null; they are here so clients of the public API find them.
    thumbnail: { type: 'string', nullable: true, readOnly: true },
    thumbnail_bytes: {
      type: 'integer',
      nullable: true,
      readOnly: true,
      minimum: 0,
      description: 'Size of the thumbnail; null: no thumbnails are made.',
    },
    thumbnail_checksum: {
      type: 'string',
      nullable: true,
      readOnly: true,
      description: 'SHA-256 of the thumbnail; null: no thumbnails are made.',
    },
    thumbnail_signature: { type: 'string', nullable: true, readOnly: true, description: 'Null: no thumbnails are made.' },
    thumbnail_type: {
      type: 'string',
      nullable: true,
      readOnly: true,
      description: 'Content type of the thumbnail; null: no thumbnails are made.',
    },
    external_ref: externalRefField,
    created_at: timestampField,
    updated_at: timestampField,
  },
});
export type Attachment = RecordOf<typeof attachmentSpec>;
