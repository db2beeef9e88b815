/**
 * Attachment content travels beside its record. The record (with `bytes` and `checksum`) syncs
 * like any other; the file itself, up to 25 MiB of binary, goes by requests of its own once the
 * records have moved (`PUT | GET /v1/sync/attachment/{id}/content`), so a large or failing file
 * never holds up the records, and a record may arrive before its content.
 *
 *  - send: an upload made on this replica, listed when the remote acknowledges the push that
 *    carried its checksum (the remote refuses content for a record it does not have). From
 *    the upload until the remote has the file it is pending: first as a mutation, then here;
 *  - fetch: an upload pulled (or handed back) whose content is not in this data folder.
 *
 * The lists are in the database (SyncBook.queueFiles), so a restart or a lost connection
 * loses nothing; a file leaves its list only once it has moved, or when its record no longer
 * names content to move. A file the remote refuses stays listed with the reason and is tried
 * again in the next run, behind those that failed less often.
 *
 * A deleted attachment's content moves all the same: it stays in the data folder on every
 * side (content is shared by every attachment with the same checksum), so a restore from the
 * trash finds it.
 */
import { maxAttachmentBytes, uploadedContent } from '../store/attachment-files.js';
import type { EnvironmentStore } from '../store/environment-store.js';
import type { TableDef } from '../store/table-def.js';
import type { Mutation } from '../../shared/operations/sync.js';
import type { FileDirection, SyncBook } from '../store/sync-book.js';
import { RemoteRefused, RemoteUnavailable, type RemoteApi } from './remote.js';

export const attachmentResource = 'attachment';

/** Files moved per direction in one run; a longer list continues in the next. */
const maxFilesPerRun = 100;

export interface FilesMoved {
  files_sent: number;
  files_fetched: number;
}

export class AttachmentContent {
  constructor(
    private readonly store: EnvironmentStore,
    private readonly book: SyncBook,
    private readonly table: TableDef,
    private readonly remote: RemoteApi,
  ) {}

  /** After the remote applied these mutations: the attachments whose content it now expects. */
  queueSends(applied: readonly Mutation[]): void {
    const ids = applied.filter((m) => m.resource === attachmentResource && typeof m.fields?.checksum === 'string').map((m) => m.id);
    if (ids.length > 0) this.book.queueFiles('send', ids);
  }

  /** After merging records from the remote: the uploads among them whose content is not here. */
  queueFetches(records: readonly { resource: string; id: string }[]): void {
    const ids = records
      .filter((r) => r.resource === attachmentResource)
      .filter((r) => {
        const content = uploadedContent(this.store.getForSync(this.table, r.id));
        return content !== undefined && !this.store.files.has(content.checksum);
      })
      .map((r) => r.id);
    if (ids.length > 0) this.book.queueFiles('fetch', ids);
  }

  /**
   * Sends what the remote lacks, then fetches what this folder lacks, counting into `moved`.
   * Answers why files could not move (they stay listed), one line per file. Throws
   * RemoteUnavailable when the remote cannot be reached (the run backs off).
   */
  async move(moved: FilesMoved): Promise<string[]> {
    const problems: string[] = [];
    for (const { attachment_id: id } of this.book.queuedFiles('send', maxFilesPerRun)) {
      const content = uploadedContent(this.store.getForSync(this.table, id));
      const bytes = content && this.store.files.read(content.checksum);
      if (!content || !bytes) {
        // Nothing of ours to send: no upload any more, or the record now names content from
        // elsewhere (the remote's version won). If that content is missing, fetch it instead.
        this.store.transaction(() => {
          this.book.fileMoved('send', id);
          this.queueFetches([{ resource: attachmentResource, id }]);
        });
        continue;
      }
      await this.attempt('send', id, problems, async () => {
        await this.remote.sendContent(id, bytes);
        moved.files_sent++;
      });
    }
    for (const { attachment_id: id } of this.book.queuedFiles('fetch', maxFilesPerRun)) {
      const content = uploadedContent(this.store.getForSync(this.table, id));
      if (!content || this.store.files.has(content.checksum)) {
        this.book.fileMoved('fetch', id);
        continue;
      }
      await this.attempt('fetch', id, problems, async () => {
        if (content.bytes > maxAttachmentBytes) throw new RemoteRefused(413, `the attachment is larger than ${maxAttachmentBytes} bytes`);
        const bytes = await this.remote.fetchContent(id, content.bytes);
        if (!this.store.files.putExpected(bytes, content))
          throw new RemoteRefused(422, "the remote sent content that does not match the attachment's checksum");
        moved.files_fetched++;
      });
    }
    return problems;
  }

  /**
   * One file: taken off its list when `transfer` succeeds. A refusal keeps it listed with the
   * reason; offline or signed out ends the run.
   */
  private async attempt(direction: FileDirection, id: string, problems: string[], transfer: () => Promise<void>): Promise<void> {
    try {
      await transfer();
      this.book.fileMoved(direction, id);
    } catch (error) {
      if (error instanceof RemoteUnavailable || !(error instanceof RemoteRefused) || error.status === 401 || error.status === 403)
        throw error;
      this.book.fileFailed(direction, id, error.message);
      // Content another replica has not sent yet is not a problem of this one: it stays listed.
      if (!(direction === 'fetch' && error.status === 404))
        problems.push(`attachment ${id}: could not ${direction} its content: ${error.message}`);
    }
  }
}
