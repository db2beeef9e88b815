/**
 * Turning every failure into the documented error body. Handlers throw `ApiError`; the
 * error handler also maps Fastify's own errors (bad JSON, wrong media type, too large) and
 * the store's (bad query, duplicate) to the right status, and turns anything unexpected
 * into a 500 that names only a reference, never a stack trace or SQL. The reference and the
 * error are recorded in the data folder's errors.log (failure-log.ts), with or without --log.
 */
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import {
  ErrorKind,
  type ApiErrorBody,
  type ApiErrorItem,
  type ErrorKindName,
  type FieldProblem,
  type FieldRule,
} from '../../shared/errors.js';
import { nowMs } from '../../shared/clock.js';
import { uuidv7 } from '../../shared/ids.js';
import { isDiskFull } from '../store/disk-full.js';
import { DuplicateError, QueryError } from '../store/query-error.js';
import { isRefusedText, isTransactionConflict } from '../store/postgres/postgres-database.js';
import { UnknownEnvironmentError } from '../store/postgres/environment-schemas.js';
import type { FailureLog } from './failure-log.js';

export class ApiError extends Error {
  constructor(
    readonly kind: ErrorKindName,
    readonly items: { description: string; field?: string; rule?: FieldRule; limit?: number; earliest_end?: string }[],
    readonly headers: Record<string, string> = {},
  ) {
    super(items.map((i) => i.description).join('; ') || ErrorKind[kind].message);
  }

  get status(): number {
    return ErrorKind[this.kind].status;
  }

  static badRequest(description: string): ApiError {
    return new ApiError('badRequest', [{ description }]);
  }
  static notLoggedIn(description = 'Send x-api-key and x-api-env, or Authorization: Bearer <token>.'): ApiError {
    return new ApiError('notLoggedIn', [{ description }]);
  }
  static notFound(description = 'No record with that id.'): ApiError {
    return new ApiError('notFound', [{ description }]);
  }
  static conflict(description: string): ApiError {
    return new ApiError('conflict', [{ description }]);
  }
  static forbidden(description: string): ApiError {
    return new ApiError('forbidden', [{ description }]);
  }
  /** One 422 error item per field problem. */
  static unprocessable(problems: FieldProblem[]): ApiError {
    return new ApiError(
      'unprocessable',
      problems.map((p) => ({
        description: p.description,
        field: p.field,
        ...(p.rule && { rule: p.rule }),
        ...(p.limit !== undefined && { limit: p.limit }),
        ...(p.date !== undefined && { date: p.date }),
        ...(p.minutes !== undefined && { minutes: p.minutes }),
      })),
    );
  }
  /** A write the disk had no room for (disk-full.ts): nothing was written, and reads go on. */
  static diskFull(): ApiError {
    return new ApiError('insufficientStorage', [
      { description: 'The disk of the server is full: nothing was saved. Send it again once there is room on it.' },
    ]);
  }
  static rule(field: string, description: string): ApiError {
    return new ApiError('unprocessable', [{ field, description }]);
  }

  body(): ApiErrorBody {
    const { code, message } = ErrorKind[this.kind];
    return {
      reference: uuidv7(),
      errors: this.items.map((item): ApiErrorItem => ({ code, message, ...item })),
    };
  }
}

export function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
  return reply.code(error.status).headers(error.headers).type('application/json').send(error.body());
}

/** Maps any thrown value to an ApiError; undefined means "unexpected" (a 500). */
export function toApiError(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (error instanceof QueryError) return ApiError.badRequest(error.message);
  // PostgreSQL (a team server): a value or a filter with a NUL character, wherever it was sent.
  if (isRefusedText(error)) return ApiError.badRequest('Text may not hold the NUL character (U+0000).');
  // PostgreSQL stopped the transaction for another's sake three times running (record-store.ts).
  if (isTransactionConflict(error))
    return new ApiError('unavailable', [{ description: 'The database was busy with writes that conflict with this one; send it again.' }]);
  if (error instanceof UnknownEnvironmentError) {
    // A team server whose database has no schema for an environment its keys name (docs/deployment.md "On PostgreSQL").
    return new ApiError('unavailable', [
      { description: "This environment's records are not on the team database; the server's operator must create or copy them." },
    ]);
  }
  if (error instanceof DuplicateError) {
    return new ApiError('duplicateEntry', [{ description: 'Duplicate entry', field: error.field, rule: 'unique' }]);
  }
  // Whatever was thrown is read as a Fastify error whose every property may be missing.
  const fastifyError = error as Partial<FastifyError>;
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    switch (fastifyError.code) {
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return new ApiError('unsupportedMediaType', [{ description: 'Send request bodies as application/json.' }]);
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return new ApiError('payloadTooLarge', [{ description: 'The request body is too large.' }]);
      default:
        if (status === 413) return new ApiError('payloadTooLarge', [{ description: 'The request body is too large.' }]);
        if (status === 415) return new ApiError('unsupportedMediaType', [{ description: 'Unsupported content type.' }]);
        return ApiError.badRequest(
          fastifyError.code?.startsWith('FST_ERR_CTP') || error instanceof SyntaxError
            ? 'The request body is not valid JSON.'
            : 'The request is malformed.',
        );
    }
  }
  return undefined;
}

/** Says on standard error, at most once a minute, that writes meet a full disk: the operator must make room. */
function diskFullNotice(folder: string | undefined): () => void {
  let last = -Infinity;
  return () => {
    const now = nowMs();
    if (now - last < 60_000) return;
    last = now;
    // Standard error goes to the journal, mostly on another disk; never waited for.
    if (process.stderr.writableLength < 64 * 1024)
      process.stderr.write(
        `The disk of ${folder ?? 'the database'} is full: writes are answered 507 until there is room again; reads go on.\n`,
      );
  };
}

/**
 * `dataFolder`: where the databases are, looked into when SQLite reports an I/O error, to tell
 * a full disk (507) from a fault (500) (store/disk-full.ts).
 */
export function installErrorHandling(app: FastifyInstance, failures?: FailureLog, dataFolder?: string): void {
  if (failures) app.addHook('onClose', () => failures.flushed());
  const noticeDiskFull = diskFullNotice(dataFolder);
  app.setErrorHandler((error, request, reply) => {
    const apiError = toApiError(error);
    if (apiError) return sendError(reply, apiError);
    // Not in toApiError: a sync push must not take a full disk for a refusal on the change's merits.
    if (isDiskFull(error, dataFolder)) {
      noticeDiskFull();
      return sendError(reply, ApiError.diskFull());
    }
    const failure = new ApiError('internal', [
      { description: 'Something went wrong on our side. Quote the reference when you report it.' },
    ]);
    const body = failure.body();
    request.log.error({ reference: body.reference, err: error }, 'unexpected error');
    // request.log does nothing without --log; this record is there either way.
    failures?.record({
      reference: body.reference,
      method: request.method,
      url: request.url,
      // ctx is null until authentication sets it (app.ts decorates it null), though typed as always set.
      environment: (request.ctx as Partial<typeof request.ctx> | null)?.caller?.environment.name,
      error,
    });
    return reply.code(500).type('application/json').send(body);
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, ApiError.notFound(`No route ${request.method} ${request.url.split('?')[0]}.`)),
  );
}
