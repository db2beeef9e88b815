/**
 * Comments on a collection or one of its cards, threaded by `parent_id`
 * (`/v1/collection/{cid}/comment`). The author is the signed-in user, or the app's user for
 * the desktop's own requests; other API keys comment without one.
 */
import type { FieldProblem } from '../../../shared/errors.js';
import { commentSpec } from '../../../shared/resources/comment.js';
import type { ResourceModule } from '../resource.js';
import { cardModule } from './card.js';
import { collectionModule } from './collection.js';
import { tables } from '../tables.js';

export const commentModule: ResourceModule = {
  spec: commentSpec,
  table: tables.comment,
  path: '/collection/:collection_id/comment',
  parents: [{ param: 'collection_id', field: 'collection_id', module: () => collectionModule }],
  relations: {
    card: { kind: 'belongsTo', target: 'card', foreignKey: 'card_id' },
    parent: { kind: 'belongsTo', target: 'comment', foreignKey: 'parent_id' },
    replies: { kind: 'hasMany', target: 'comment', foreignKey: 'parent_id' },
    user: { kind: 'belongsTo', target: 'user', foreignKey: 'user_id' },
  },
  rules: {
    async check(ctx, tx, values, current) {
      const problems: FieldProblem[] = [];
      const collectionId = values.collection_id ?? current?.collection_id;
      for (const [field, module] of [
        ['card_id', cardModule],
        ['parent_id', commentModule],
      ] as const) {
        const id = values[field];
        if (typeof id !== 'string') continue;
        const record = await tx.get(module.table, id);
        if (record && record.collection_id !== collectionId) {
          problems.push({ field, description: `${field} must belong to this collection` });
        }
      }
      // The author: the signed-in user, or the app's user a bridge request acts as (docs/API.md
      // "The app's user"), so the planner's own comments show who wrote them.
      // A key without a user (another program, a replica pushing) leaves it as it is.
      if (!current && (ctx.caller.kind === 'user' || ctx.caller.userId)) values.user_id = ctx.caller.userId ?? null;
      return problems;
    },
  },
};
