import { nowTimestamp } from '../../../../shared/ids.js';
import type { Migration } from '../../database.js';

/**
 * Attachment content that a local replica still has to send to its remote or fetch from it
 * (electron/sync/attachment-content.ts): the records sync through the outbox and the change
 * feed, their files separately, and until a file has moved it is listed here.
 *
 * Replicas that synced before content moved have uploads whose content never left them, and
 * records pulled without content: a replica that has pulled (it has a cursor) lists its own
 * uploads — the `checksum` written under its node id — to send and the others to fetch. A
 * fetch of content already here costs nothing.
 */
export const syncFiles: Migration = {
  version: 11,
  name: 'sync-files',
  up(db) {
    db.exec(`
      CREATE TABLE sync_file (
        direction TEXT NOT NULL CHECK (direction IN ('send', 'fetch')),
        attachment_id TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        last_error TEXT,
        queued_at TEXT NOT NULL,
        PRIMARY KEY (direction, attachment_id)
      ) WITHOUT ROWID;
    `);
    db.prepare(
      `
      INSERT INTO sync_file (direction, attachment_id, queued_at)
      SELECT CASE WHEN substr(json_extract(c.clocks, '$.checksum'), 20) = json_extract(node.value, '$') THEN 'send' ELSE 'fetch' END,
             a.id, ?
      FROM attachment a
      JOIN sync_clock c ON c.resource = 'attachment' AND c.record_id = a.id
      JOIN sync_state node ON node.key = 'node_id'
      WHERE a.type = 'upload' AND a.checksum IS NOT NULL
        AND EXISTS (SELECT 1 FROM sync_state WHERE key = 'cursor')
    `,
    ).run(nowTimestamp());
  },
};
