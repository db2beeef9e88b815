/**
 * Uploaded files, stored under their SHA-256 in the environment's folder
 * (`attachments/<environment id>/<first two hex>/<hash>`). A file name given by a user is never
 * part of a path; the same content uploaded twice is stored once. Files are written to a
 * temporary name and renamed, so a crash never leaves half a file under a hash.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ownerOnlyFileMode, ownerOnlyFolderMode } from './owner-only.js';

/** The largest file an attachment may hold: an upload, and content sent or fetched by sync. */
export const maxAttachmentBytes = 25 * 1024 * 1024;

const hashPattern = /^[0-9a-f]{64}$/;

/** Whether a value can name stored content (a record's `checksum` from elsewhere may not). */
export function isChecksum(value: unknown): value is string {
  return typeof value === 'string' && hashPattern.test(value);
}

/** The content an attachment record names, when it is an upload (a link names none). */
export function uploadedContent(record: Record<string, unknown> | undefined): { checksum: string; bytes: number } | undefined {
  if (!record || record.type !== 'upload' || !isChecksum(record.checksum) || typeof record.bytes !== 'number') return undefined;
  return { checksum: record.checksum, bytes: record.bytes };
}

export function checksumOf(content: Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}

export class AttachmentFiles {
  constructor(private readonly root: string) {}

  private pathOf(checksum: string): string {
    if (!isChecksum(checksum)) throw new Error('not a checksum');
    return join(this.root, checksum.slice(0, 2), checksum);
  }

  put(content: Buffer): { checksum: string; bytes: number } {
    const checksum = checksumOf(content);
    this.write(checksum, content);
    return { checksum, bytes: content.length };
  }

  /**
   * Stores content that must be what a record says it is (content that arrives for an existing
   * attachment). False, and nothing written, when it is not.
   */
  putExpected(content: Buffer, expected: { checksum: string; bytes: number }): boolean {
    if (content.length !== expected.bytes || checksumOf(content) !== expected.checksum) return false;
    this.write(expected.checksum, content);
    return true;
  }

  private write(checksum: string, content: Buffer): void {
    const path = this.pathOf(checksum);
    if (existsSync(path)) return;
    mkdirSync(join(this.root, checksum.slice(0, 2)), { recursive: true, mode: ownerOnlyFolderMode });
    const temporary = `${path}.${randomBytes(6).toString('hex')}.part`;
    writeFileSync(temporary, content, { flush: true, mode: ownerOnlyFileMode });
    renameSync(temporary, path);
  }

  has(checksum: string): boolean {
    return existsSync(this.pathOf(checksum));
  }

  read(checksum: string): Buffer | undefined {
    const path = this.pathOf(checksum);
    return existsSync(path) ? readFileSync(path) : undefined;
  }
}

export interface StoredContent {
  checksum: string;
  bytes: number;
}

/**
 * Where an environment's attachment content is kept, by its SHA-256 checksum, for either store
 * engine: the data folder's files (`filesAsBlobStore`) or the team server's database
 * (postgres/attachment-content.ts). `AttachmentFiles` with `Promise` results.
 */
export interface AttachmentBlobStore {
  /** Stores content (once, however often it is put) and answers its checksum and size. */
  put(content: Buffer): Promise<StoredContent>;
  /** Stores content that must be what a record says it is: false, and nothing stored, when it is not. */
  putExpected(content: Buffer, expected: StoredContent): Promise<boolean>;
  has(checksum: string): Promise<boolean>;
  /** The content, or undefined when none has that checksum. */
  read(checksum: string): Promise<Buffer | undefined>;
}

/** The files of a data folder (the SQLite engine's store) as a blob store: its methods fit as they are. */
export function filesAsBlobStore(files: AttachmentFiles): AttachmentBlobStore {
  return {
    put: async (content) => files.put(content),
    putExpected: async (content, expected) => files.putExpected(content, expected),
    has: async (checksum) => files.has(checksum),
    read: async (checksum) => files.read(checksum),
  };
}
