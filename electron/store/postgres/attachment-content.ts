/**
 * Attachment content on the team server (docs/architecture.md "Team server on PostgreSQL",
 * docs/API.md "Attachments"): every node must serve every file, so content cannot stay in one
 * node's data folder. It goes behind a small blob interface, `AttachmentBlobStore`, whose
 * default engine on the team server is the environment's own schema in the database.
 *
 * The interface is `AttachmentFiles`' (attachment-files.ts) with `Promise` results: `put` by
 * content, `putExpected` for content that must be what a record says, `has` and `read` by
 * checksum; there is no delete, as there is none today (a deleted attachment's content stays,
 * for a restore from the trash). Content is keyed by the same SHA-256 checksum, so the same
 * content is stored once per environment, and a checksum that names nothing reads as
 * `undefined`: "not found", as a missing file does. A value that is no checksum at all is a
 * programming error and throws before any query, as `AttachmentFiles` does. `AttachmentFiles`
 * fits the interface unchanged (`filesAsBlobStore`), so an S3-like store could be a third
 * engine.
 */
import { checksumOf, isChecksum, type AttachmentBlobStore, type StoredContent } from '../attachment-files.js';
import { withEnvironment } from './environment-schemas.js';
import type { PostgresClient, PostgresMigration, PostgresPool } from './postgres-database.js';

/**
 * Environment migration: one row per distinct content. Storage EXTERNAL keeps large values out
 * of line without trying to compress them: attachments are mostly images and PDFs, compressed
 * already, and a read then costs no decompression. The checks repeat what the store checks
 * before writing, so no other path can store a row that names content it does not hold.
 */
export const attachmentContentMigration: PostgresMigration = {
  version: 4,
  name: 'attachment-content',
  async up(client) {
    await client.query(`
      CREATE TABLE attachment_content (
        checksum text PRIMARY KEY CHECK (checksum ~ '^[0-9a-f]{64}$'),
        bytes integer NOT NULL CHECK (bytes >= 0),
        content bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK (octet_length(content) = bytes)
      );
      ALTER TABLE attachment_content ALTER COLUMN content SET STORAGE EXTERNAL;
    `);
  },
};

function checked(checksum: string): string {
  if (!isChecksum(checksum)) throw new Error('not a checksum');
  return checksum;
}

/**
 * An environment's attachment content in its schema on PostgreSQL, for every node alike: each
 * call a short transaction of its own on the pool, or, given a transaction's `client` (inside
 * `withEnvironment`), a statement of that transaction, so a record and its content commit
 * together.
 */
export class PostgresAttachmentContent implements AttachmentBlobStore {
  private readonly run: <T>(fn: (client: PostgresClient) => Promise<T>) => Promise<T>;

  constructor(pool: PostgresPool, environmentId: string);
  constructor(transaction: PostgresClient);
  constructor(poolOrClient: PostgresPool | PostgresClient, environmentId?: string) {
    // Given an environment, the first argument is the pool (the first signature); else a transaction's client.
    const pool = poolOrClient as PostgresPool;
    const client = poolOrClient as PostgresClient;
    this.run = environmentId === undefined ? (fn) => fn(client) : (fn) => withEnvironment(pool, environmentId, fn);
  }

  async put(content: Buffer): Promise<StoredContent> {
    const stored = { checksum: checksumOf(content), bytes: content.length };
    await this.write(stored, content);
    return stored;
  }

  async putExpected(content: Buffer, expected: StoredContent): Promise<boolean> {
    if (content.length !== expected.bytes || checksumOf(content) !== expected.checksum) return false;
    await this.write(expected, content);
    return true;
  }

  /**
   * Stored once: content already here (put by this node or another, even at the same moment)
   * is the same bytes under the same checksum, so the insert then does nothing.
   */
  private write(stored: StoredContent, content: Buffer): Promise<unknown> {
    return this.run((client) =>
      client.query('INSERT INTO attachment_content (checksum, bytes, content) VALUES ($1, $2, $3) ON CONFLICT (checksum) DO NOTHING', [
        stored.checksum,
        stored.bytes,
        content,
      ]),
    );
  }

  async has(checksum: string): Promise<boolean> {
    const key = checked(checksum);
    return this.run(async (client) => {
      const { rowCount } = await client.query('SELECT 1 FROM attachment_content WHERE checksum = $1', [key]);
      return rowCount === 1;
    });
  }

  async read(checksum: string): Promise<Buffer | undefined> {
    const key = checked(checksum);
    return this.run(async (client) => {
      const { rows } = await client.query<{ content: Buffer }>('SELECT content FROM attachment_content WHERE checksum = $1', [key]);
      return rows[0]?.content;
    });
  }
}
