/**
 * GET /v1/material?collection_ids=… (or ?board_id=…): what each collection waits for and from
 * when it may start (docs/API.md "Material"), worked out on every read, so a purchase order
 * whose date moves moves the earliest start of the orders it feeds with it. The backlog and the
 * order screen read it by collection, the board by board.
 */
import type { FastifyInstance } from 'fastify';
import { isUuid } from '../../../shared/ids.js';
import { single, type QueryString } from '../conventions/list-query.js';
import { ApiError } from '../errors.js';
import { readRecord } from '../records.js';
import type { RequestContext } from '../resource.js';
import { boardModule } from '../resources/board.js';
import { tables } from '../tables.js';
import { maxMaterialCollections } from '../../../shared/material.js';
import { collectionMaterial } from './material-read.js';

/** The collections asked for: `board_id`'s planned collections, or the `collection_ids` listed. */
async function collectionIdsOf(ctx: RequestContext, query: QueryString): Promise<{ ids: string[]; onBoard: boolean }> {
  const boardId = single(query, 'board_id');
  if (boardId !== undefined && boardId !== '') {
    if (single(query, 'collection_ids') !== undefined) throw ApiError.badRequest('name either board_id or collection_ids, not both');
    if (!isUuid(boardId)) throw ApiError.badRequest(`board_id must be a uuid, got '${boardId}'`);
    // Answers the 404 for a board that is not there.
    await readRecord(ctx, boardModule, boardId.toLowerCase());
    const planned = await ctx.records.getWhereIn(tables.collection, 'board_id', [boardId.toLowerCase()]);
    return { ids: planned.filter((c) => c.status === 'planned').map((c) => c.id), onBoard: true };
  }
  const text = single(query, 'collection_ids') ?? '';
  const ids = text.split(',').filter((id) => id !== '');
  if (ids.length === 0) throw ApiError.badRequest('collection_ids must name at least one collection');
  if (ids.length > maxMaterialCollections) throw ApiError.badRequest(`collection_ids names at most ${maxMaterialCollections} collections`);
  const bad = ids.find((id) => !isUuid(id));
  if (bad !== undefined) throw ApiError.badRequest(`collection_ids must be uuids, got '${bad}'`);
  return { ids: [...new Set(ids.map((id) => id.toLowerCase()))], onBoard: false };
}

export function registerMaterialRoutes(app: FastifyInstance): void {
  app.get<{ Querystring: QueryString }>(
    '/material',
    {
      config: {
        doc: {
          summary: 'What collections wait for: material expected, its date, and planned cards that start before it',
          tag: 'Collection',
          query: {
            collection_ids: `Comma-separated collection ids (1 to ${maxMaterialCollections}); unknown ids are left out.`,
            board_id: 'Instead: the collections planned on this board that wait for material.',
          },
        },
      },
    },
    async (request) => {
      const { ids, onBoard } = await collectionIdsOf(request.ctx, request.query);
      const data = await collectionMaterial(request.ctx.records, ids);
      // A board's read lists only the collections that wait for something.
      return { data: onBoard ? data.filter((m) => m.waits.length > 0 || m.date_unknown.length > 0) : data };
    },
  );
}
