/**
 * How a user handled an item of the exception inbox (docs/API.md "Exceptions"): a record per
 * user and exception key, written through the generic routes (so it is a command, syncs, and
 * runs on either engine). A signed-in user keeps only their own handling; an API key (an
 * integration, the desktop app's own bridge acting as its user) names whose it is.
 */
import type { FieldProblem } from '../../../shared/errors.js';
import { exceptionHandlingSpec } from '../../../shared/resources/exception-handling.js';
import type { StoredRecord } from '../../../shared/fields.js';
import type { RecordWrites } from '../../store/record-store.js';
import { ApiError } from '../errors.js';
import type { RequestContext, ResourceModule } from '../resource.js';
import { tables } from '../tables.js';

export const ownHandlingMessage = 'A user snoozes and marks as seen only their own exceptions.';

function checkOwn(ctx: RequestContext, userId: unknown): void {
  if (ctx.caller.kind === 'user' && userId !== ctx.caller.userId) throw ApiError.forbidden(ownHandlingMessage);
}

function check(ctx: RequestContext, _tx: RecordWrites, values: Record<string, unknown>, current: StoredRecord | undefined): FieldProblem[] {
  if (current) checkOwn(ctx, current.user_id);
  // Left out on a new record: the caller's user (a signed-in user, or the app's user on its bridge).
  if (!current && (values.user_id === undefined || values.user_id === null) && ctx.caller.userId) values.user_id = ctx.caller.userId;
  if (!current && (values.user_id === undefined || values.user_id === null)) {
    return [{ field: 'user_id', description: 'names whose handling this is; a caller with no user must send it', rule: 'required' }];
  }
  if (values.user_id !== undefined) checkOwn(ctx, values.user_id);
  return [];
}

export const exceptionHandlingModule: ResourceModule = {
  spec: exceptionHandlingSpec,
  table: tables.exception_handling,
  path: '/exception_handling',
  relations: { user: { kind: 'belongsTo', target: 'user', foreignKey: 'user_id' } },
  rules: {
    check,
    checkDelete(ctx, _tx, record) {
      checkOwn(ctx, record.user_id);
      return [];
    },
  },
};
