/**
 * Attachments of a collection or card (`/v1/collection/{cid}/attachment`):
 *
 *  - a link: `POST …/attachment` with `{filename, file: <URL>, type: "external", card_id?}`;
 *  - an upload: `POST …/attachment/upload` as multipart/form-data with a `file` part (and
 *    optional `card_id`, `filename` fields). The content is stored under its SHA-256 in the
 *    data folder; `bytes` and `checksum` are recorded; over the size limit is a 413;
 *  - `GET …/attachment/{id}/download` returns an upload's content.
 *
 * The upload and download routes are in attachment-routes.ts.
 */
import { attachmentSpec } from '../../../shared/resources/attachment.js';
import type { ResourceModule } from '../resource.js';
import { collectionModule } from './collection.js';
import { tables } from '../tables.js';

export const attachmentModule: ResourceModule = {
  spec: attachmentSpec,
  table: tables.attachment,
  path: '/collection/:collection_id/attachment',
  parents: [{ param: 'collection_id', field: 'collection_id', module: () => collectionModule }],
  relations: { card: { kind: 'belongsTo', target: 'card', foreignKey: 'card_id' } },
  rules: {
    async check(ctx, tx, values, current) {
      const problems = [];
      if (typeof values.card_id === 'string') {
        const card = await tx.get(tables.card, values.card_id);
        if (card && card.collection_id !== (values.collection_id ?? current?.collection_id)) {
          problems.push({ field: 'card_id', description: 'card_id must be a card of this collection' });
        }
      }
      // Links must point at the web; uploads get their download path from the server.
      if (typeof values.file === 'string' && (values.type ?? current?.type) === 'external' && !/^https?:\/\/\S+$/.test(values.file)) {
        problems.push({ field: 'file', description: 'file must be an http(s) URL for a link' });
      }
      if (!current && ctx.caller.kind === 'user') values.user_id = ctx.caller.userId ?? null;
      return problems;
    },
  },
};
