/**
 * Attachment routes beside the generic ones (attachment.ts; docs/API.md): an upload as
 * multipart/form-data (`POST …/attachment/upload`) and an upload's content (`GET …/download`).
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { uuidv7 } from '../../../shared/ids.js';
import { maxAttachmentBytes } from '../../store/attachment-files.js';
import type { QueryString } from '../conventions/list-query.js';
import { ApiError, toApiError } from '../errors.js';
import { asCommandOnRecords } from '../commands/request-command.js';
import { createRecord, presentWritten, readRecord, shapeOptionsFor } from '../records.js';
import type { RecordWrites } from '../../store/record-store.js';
import type { RequestContext } from '../resource.js';
import { tables, type Stored } from '../tables.js';
import { attachmentModule } from './attachment.js';

const safeContentType = /^[\w.+-]+\/[\w.+-]+$/;

function downloadPath(collectionId: string, id: string): string {
  return `/v1/collection/${collectionId}/attachment/${id}/download`;
}

/** `Content-Disposition` that survives any file name: ASCII fallback plus RFC 5987 UTF-8. */
function disposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

export function registerAttachmentRoutes(app: FastifyInstance): void {
  // Multipart is read by the upload route only, in a scope of its own: registered on /v1 it
  // would parse a form sent to any JSON route, which must be 415 (docs/API.md "Errors").
  void app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: maxAttachmentBytes, files: 1, fields: 10 } });
    registerUploadRoute(scope);
  });
  registerDownloadRoute(app);
}

interface Upload {
  filename: string;
  mimetype: string;
  content: Buffer;
}

/** The form's one file and its text fields. A body cut off or malformed is 400, not a 500. */
async function readForm(request: FastifyRequest): Promise<{ fields: Record<string, string>; upload?: Upload }> {
  const fields: Record<string, string> = {};
  let upload: Upload | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file' || upload) throw ApiError.badRequest('Send exactly one file, in the "file" part.');
        upload = { filename: part.filename, mimetype: part.mimetype, content: await part.toBuffer() };
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    // Our own refusals and the size limits (413) keep their status; the parser's errors
    // (a part that ends early, a missing boundary) describe the body the client sent.
    if (toApiError(error)) throw error;
    throw ApiError.badRequest('The multipart body is cut off or malformed; send the whole form again.');
  }
  return { fields, ...(upload ? { upload } : {}) };
}

/** A file to keep as an upload attachment of a collection, or of one of its cards. */
export interface AttachedFile {
  collectionId: string;
  cardId?: string | undefined;
  filename: string;
  contentType: string;
  content: Buffer;
  /** The attachment's id, when the caller made it already. */
  id?: string;
}

/**
 * Writes an upload attachment in the transaction: the record is checked (and written) first,
 * so a refused upload leaves no file behind; the file is written inside the transaction, so a
 * failed write leaves no record. The upload route and the floor's photos both keep files so.
 */
export async function attachFile(ctx: RequestContext, tx: RecordWrites, file: AttachedFile): Promise<Stored<'attachment'>> {
  const id = file.id ?? uuidv7();
  const values = {
    filename: file.filename,
    file: downloadPath(file.collectionId, id),
    type: 'upload',
    ...(file.cardId ? { card_id: file.cardId } : {}),
  };
  await createRecord(ctx, tx, attachmentModule, values, { collection_id: file.collectionId }, { id });
  const stored = await tx.files.put(file.content);
  return (await tx.update(tables.attachment, id, {
    bytes: stored.bytes,
    checksum: stored.checksum,
    content_type: safeContentType.test(file.contentType) ? file.contentType : 'application/octet-stream',
  }))!;
}

const uploadSummary = 'Upload a file as an attachment (multipart/form-data: file, card_id?, filename?)';

function registerUploadRoute(app: FastifyInstance): void {
  app.post<{ Params: { collection_id: string }; Querystring: QueryString }>(
    '/collection/:collection_id/attachment/upload',
    {
      config: {
        doc: {
          summary: uploadSummary,
          tag: 'Collection',
          success: { status: 201, description: 'The attachment' },
        },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) throw ApiError.badRequest('Send the file as multipart/form-data with a "file" part.');
      const { fields, upload } = await readForm(request);
      if (!upload) throw ApiError.badRequest('Send the file as multipart/form-data with a "file" part.');
      const shape = shapeOptionsFor(attachmentModule, request.query);
      const { ctx } = request;
      const id = uuidv7();
      const collectionId = request.params.collection_id.toLowerCase();
      const answer = await asCommandOnRecords(request, reply, uploadSummary, async (tx) => {
        const record = await attachFile(ctx, tx, {
          collectionId,
          cardId: fields.card_id || undefined,
          filename: fields.filename || upload.filename || 'file',
          contentType: upload.mimetype,
          content: upload.content,
          id,
        });
        return presentWritten(ctx, tx, attachmentModule, record, shape);
      });
      reply.code(201);
      return answer;
    },
  );
}

function registerDownloadRoute(app: FastifyInstance): void {
  app.get<{ Params: { collection_id: string; id: string } }>(
    '/collection/:collection_id/attachment/:id/download',
    { config: { doc: { summary: 'Download an uploaded attachment', tag: 'Collection' } } },
    async (request, reply) => {
      const attachment = await readRecord(request.ctx, attachmentModule, request.params.id, {
        collection_id: request.params.collection_id,
      });
      if (attachment.type !== 'upload' || typeof attachment.checksum !== 'string') {
        throw ApiError.notFound('This attachment is a link; open its file URL.');
      }
      const content = await request.ctx.records.files.read(attachment.checksum);
      if (!content) throw ApiError.notFound("The attachment's content is missing from the data folder.");
      // A stored upload: content_type is nullable text, filename required text (shared/resources).
      const contentType = (attachment.content_type as string | null) ?? 'application/octet-stream';
      const filename = attachment.filename as string;
      return reply
        .type(contentType)
        .header('content-disposition', disposition(filename))
        .header('x-content-type-options', 'nosniff')
        .send(content);
    },
  );
}
