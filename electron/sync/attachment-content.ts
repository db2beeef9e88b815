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
import type { RecordStore, RecordWrites } from '../store/record-store.js';
import type { ReplicaBookReads } from '../store/replica-book.js';
import type { TableDef } from '../store/table-def.js';
import type { Mutation } from '../../shared/operations/sync.js';
import type { FileDirection } from '../store/sync-book.js';
import { replicaOf } from './merge.js';
import { RemoteRefused, RemoteUnavailable, type RemoteApi } from './remote.js';

export const attachmentResource = 'attachment';

/** Files moved per direction in one run; a longer list continues in the next. */
const maxFilesPerRun = 100;

export interface FilesMoved {
  files_sent: number;
  files_fetched: number;
}

export class AttachmentContent {
  /** `records`: a local replica's store, with its replica book (replica-book.ts). */
  constructor(
    private readonly records: RecordStore,
    private readonly table: TableDef,
    private readonly remote: RemoteApi,
  ) {}

  private get replica(): ReplicaBookReads {
    if (!this.records.replica) throw new Error("This store keeps no replica's books: only a local replica syncs with a remote.");
    return this.records.replica;
  }

  /** After the remote applied these mutations, in the transaction that acknowledges them: the attachments whose content it now expects. */
  async queueSends(tx: RecordWrites, applied: readonly Mutation[]): Promise<void> {
    const ids = applied.filter((m) => m.resource === attachmentResource && typeof m.fields?.checksum === 'string').map((m) => m.id);
    if (ids.length > 0) await replicaOf(tx).queueFiles('send', ids);
  }

  /** After merging records from the remote, in the same transaction: the uploads among them whose content is not here. */
  async queueFetches(tx: RecordWrites, records: readonly { resource: string; id: string }[]): Promise<void> {
    const replica = replicaOf(tx);
    const ids: string[] = [];
    for (const r of records) {
      if (r.resource !== attachmentResource) continue;
      const content = uploadedContent(await replica.getForSync(this.table, r.id));
      if (content !== undefined && !(await tx.files.has(content.checksum))) ids.push(r.id);
    }
    if (ids.length > 0) await replica.queueFiles('fetch', ids);
  }

  /** Takes a file off its list, or notes why it did not move, in a transaction of its own. */
  private note(direction: FileDirection, id: string, error?: string): Promise<void> {
    return this.records.transaction((tx) =>
      error === undefined ? replicaOf(tx).fileMoved(direction, id) : replicaOf(tx).fileFailed(direction, id, error),
    );
  }

  /**
   * Sends what the remote lacks, then fetches what this folder lacks, counting into `moved`.
   * Answers why files could not move (they stay listed), one line per file. Throws
   * RemoteUnavailable when the remote cannot be reached (the run backs off).
   */
  async move(moved: FilesMoved): Promise<string[]> {
    const problems: string[] = [];
    for (const { attachment_id: id } of await this.replica.queuedFiles('send', maxFilesPerRun)) {
      const content = uploadedContent(await this.replica.getForSync(this.table, id));
      const bytes = content && (await this.records.files.read(content.checksum));
      if (!content || !bytes) {
        // Nothing of ours to send: no upload any more, or the record now names content from
        // elsewhere (the remote's version won). If that content is missing, fetch it instead.
        await this.records.transaction(async (tx) => {
          await replicaOf(tx).fileMoved('send', id);
          await this.queueFetches(tx, [{ resource: attachmentResource, id }]);
        });
        continue;
      }
      await this.attempt('send', id, problems, async () => {
        await this.remote.sendContent(id, bytes);
        moved.files_sent++;
      });
    }
    for (const { attachment_id: id } of await this.replica.queuedFiles('fetch', maxFilesPerRun)) {
      const content = uploadedContent(await this.replica.getForSync(this.table, id));
      if (!content || (await this.records.files.has(content.checksum))) {
        await this.note('fetch', id);
        continue;
      }
      await this.attempt('fetch', id, problems, async () => {
        if (content.bytes > maxAttachmentBytes) throw new RemoteRefused(413, `the attachment is larger than ${maxAttachmentBytes} bytes`);
        const bytes = await this.remote.fetchContent(id, content.bytes);
        if (!(await this.records.files.putExpected(bytes, content)))
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
      await this.note(direction, id);
    } catch (error) {
      if (error instanceof RemoteUnavailable || !(error instanceof RemoteRefused) || error.status === 401 || error.status === 403)
        throw error;
      await this.note(direction, id, error.message);
      // Content another replica has not sent yet is not a problem of this one: it stays listed.
      if (!(direction === 'fetch' && error.status === 404))
        problems.push(`attachment ${id}: could not ${direction} its content: ${error.message}`);
    }
  }
}
