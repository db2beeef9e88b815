/**
 * Uploaded files, stored under their SHA-256 in the environment's folder
 * (`attachments/<environment id>/<first two hex>/<hash>`). A file name given by a user is never
 * part of a path; the same content uploaded twice is stored once. Files are written to a
 * temporary name and renamed, so a crash never leaves half a file under a hash.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const hashPattern = /^[0-9a-f]{64}$/;

export class AttachmentFiles {
  constructor(private readonly root: string) {}

  private pathOf(checksum: string): string {
    if (!hashPattern.test(checksum)) throw new Error('not a checksum');
    return join(this.root, checksum.slice(0, 2), checksum);
  }

  put(content: Buffer): { checksum: string; bytes: number } {
    const checksum = createHash('sha256').update(content).digest('hex');
    const path = this.pathOf(checksum);
    if (!existsSync(path)) {
      mkdirSync(join(this.root, checksum.slice(0, 2)), { recursive: true });
      const temporary = `${path}.${randomBytes(6).toString('hex')}.part`;
      writeFileSync(temporary, content, { flush: true });
      renameSync(temporary, path);
    }
    return { checksum, bytes: content.length };
  }

  read(checksum: string): Buffer | undefined {
    const path = this.pathOf(checksum);
    return existsSync(path) ? readFileSync(path) : undefined;
  }
}
