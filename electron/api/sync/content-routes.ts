/**
 * Attachment content for replicas (docs/API.md "Sync"): the file of an uploaded attachment, by
 * the attachment's id, in the caller's environment.
 *
 *   PUT /v1/sync/attachment/{id}/content   the bytes, as application/octet-stream
 *   GET /v1/sync/attachment/{id}/content
 *
 * A replica pushes an attachment's record first and sends its file after, so content is taken
 * only for a record this environment has (409 before), and only when it is exactly what the
 * record says (`bytes`, `checksum`; 422 otherwise, and nothing is stored). Content already here
 * is acknowledged again (200), so a send whose answer was lost can simply be repeated.
 */
import type { FastifyInstance } from 'fastify';
import { isUuid } from '../../../shared/ids.js';
import { maxAttachmentBytes, uploadedContent } from '../../store/attachment-files.js';
import { ApiError } from '../errors.js';
import type { RequestContext } from '../resource.js';
import { tables } from '../tables.js';

type Params = { Params: { id: string } };

async function attachmentOf(ctx: RequestContext, id: string) {
  // Deleted attachments included: their content stays, for a restore from the trash.
  return isUuid(id) ? await ctx.records.get(tables.attachment, id.toLowerCase(), { includeDeleted: true }) : undefined;
}

export function registerContentRoutes(app: FastifyInstance): void {
  // Raw bytes are read only here; every other route stays JSON-only.
  void app.register(async (scope) => {
    scope.addContentTypeParser('application/octet-stream', { parseAs: 'buffer', bodyLimit: maxAttachmentBytes }, (_request, body, done) =>
      done(null, body),
    );
    const doc = (summary: string, extra: Record<string, unknown> = {}) => ({ doc: { summary, tag: 'Sync', ...extra } });

    scope.put<Params>(
      '/sync/attachment/:id/content',
      {
        config: doc("Send an uploaded attachment's content (application/octet-stream, after its record)", {
          success: { status: 201, description: 'Stored (200: it was here already)' },
        }),
      },
      async (request, reply) => {
        const attachment = await attachmentOf(request.ctx, request.params.id);
        if (!attachment)
          throw ApiError.conflict('This environment has no attachment with that id (yet): push its record, then send its content.');
        const expected = uploadedContent(attachment);
        if (!expected) throw ApiError.conflict('This attachment is a link or has no checksum: it has no content to receive.');
        if (!Buffer.isBuffer(request.body)) throw ApiError.badRequest('Send the content as application/octet-stream.');
        const { files } = request.ctx.records;
        const already = await files.has(expected.checksum);
        if (!(await files.putExpected(request.body, expected))) {
          throw ApiError.rule(
            'content',
            `The content does not match the attachment: expected ${expected.bytes} bytes with SHA-256 ${expected.checksum}.`,
          );
        }
        reply.code(already ? 200 : 201);
        return { id: attachment.id, bytes: expected.bytes, checksum: expected.checksum };
      },
    );

    scope.get<Params>('/sync/attachment/:id/content', { config: doc("An uploaded attachment's content") }, async (request, reply) => {
      const attachment = await attachmentOf(request.ctx, request.params.id);
      if (!attachment) throw ApiError.notFound('No attachment with that id.');
      const expected = uploadedContent(attachment);
      if (!expected) throw ApiError.notFound('This attachment is a link: it has no content.');
      const content = await request.ctx.records.files.read(expected.checksum);
      if (!content) throw ApiError.notFound("This instance does not have the attachment's content (yet).");
      return reply.type('application/octet-stream').header('x-content-type-options', 'nosniff').send(content);
    });
  });
}
