/**
 * The browser host's recovery routes, served while the data folder cannot be opened
 * (recovery.ts does the work, recovery-page.ts draws the page):
 *
 *   GET  /?key=…                the recovery page; without the page key, only where to find it
 *   POST /recovery/restore      multipart/form-data: key, then `path` (a backup file on this
 *                               computer) or `file` (the backup itself, uploaded)
 *   POST /recovery/start-fresh  form: key
 *   POST /recovery/open-folder  form: key, folder (a full path)
 *   POST /recovery/retry        form: key (for a file another program had locked)
 *
 * A choice that opens the data answers 303 to `/?key=…`, where the app now is. A refusal
 * answers 4xx: the page again with the reason for a browser (which asks for text/html), else
 * the API's error body. Every choice needs what a bridge call needs (the session cookie, a
 * same-origin Origin) and the page key as a form field; the key is read before any uploaded
 * byte is written.
 */
import { timingSafeEqual } from 'node:crypto';
import { createWriteStream, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, isAbsolute, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../api/errors.js';
import { DatabaseOpenError } from '../store/database.js';
import { keyNeededPage, recoveryPage, recoveryPageCsp } from './recovery-page.js';
import { RecoveryRefused, type DataFolderRecovery } from './recovery.js';

/** The largest backup the page takes as an upload; a larger one can be restored by its path. */
export const maxBackupUploadBytes = 16 * 1024 ** 3;
const maxFormBytes = 64 * 1024;

/**
 * `Opened` is what a choice opens (the browser host's `HostedApp`). The routes only hand it back
 * through `recovered`, so they do not import the browser host, which imports them.
 */
export interface RecoveryRouteOptions<Opened> {
  recovery: DataFolderRecovery<Opened>;
  pageKey: string;
  /** The browser host's check of a caller: session cookie, Origin, and this page key. */
  fromPage(request: FastifyRequest, presentedKey: unknown): boolean;
  setSessionCookie(reply: FastifyReply): void;
  /** False once a choice has opened the data (the app is served then). */
  isRecovering(): boolean;
  /** A choice opened the data: the host serves this from now on. */
  recovered(opened: Opened): void;
}

class PageRefusal extends Error {
  constructor(
    readonly status: 400 | 401 | 409 | 413 | 422,
    message: string,
  ) {
    super(message);
  }
}

const errorKinds = { 400: 'badRequest', 401: 'notLoggedIn', 409: 'conflict', 413: 'payloadTooLarge', 422: 'unprocessable' } as const;

export function registerRecoveryRoutes<Opened>(
  app: FastifyInstance,
  options: RecoveryRouteOptions<Opened>,
): { page(request: FastifyRequest, reply: FastifyReply): FastifyReply } {
  const { recovery, pageKey } = options;
  let busy = false;
  const expectedKey = Buffer.from(pageKey);
  const isPageKey = (key: unknown) => {
    const given = Buffer.from(typeof key === 'string' ? key : '');
    return given.length === expectedKey.length && timingSafeEqual(given, expectedKey);
  };

  const html = (reply: FastifyReply, status: number, body: string) =>
    reply
      .code(status)
      .type('text/html; charset=utf-8')
      .header('content-security-policy', recoveryPageCsp)
      .header('cache-control', 'no-store')
      // So the forms' Origin is this origin rather than `null` (see recovery-page.ts).
      .header('referrer-policy', 'same-origin')
      .send(body);

  const refuse = (request: FastifyRequest, reply: FastifyReply, refusal: PageRefusal) => {
    if (!(request.headers.accept ?? '').includes('text/html')) {
      return reply
        .code(refusal.status)
        .type('application/json')
        .send(new ApiError(errorKinds[refusal.status], [{ description: refusal.message }]).body());
    }
    if (refusal.status === 401) return html(reply, 401, keyNeededPage());
    // Once the data is open, the page to go back to is the app itself.
    if (!options.isRecovering())
      return reply
        .code(303)
        .header('location', `/?key=${encodeURIComponent(pageKey)}`)
        .send();
    return html(reply, refusal.status, recoveryPage(recovery.facts, pageKey, refusal.message));
  };

  /** Refuses a choice that may not be made now, before any of its body is used. */
  const mayChoose = (request: FastifyRequest, key: unknown): void => {
    if (!options.fromPage(request, key))
      throw new PageRefusal(401, 'Open the address Planner printed when it started (it carries the page key).');
    if (!options.isRecovering()) throw new PageRefusal(409, 'Planner has opened its data already; there is nothing to recover.');
    if (busy) throw new PageRefusal(409, 'Another choice is being carried out; wait for it to finish.');
  };

  const choose = async (request: FastifyRequest, reply: FastifyReply, key: unknown, choice: () => Promise<Opened>) => {
    mayChoose(request, key);
    busy = true;
    try {
      options.recovered(await choice());
    } catch (error) {
      if (error instanceof RecoveryRefused) throw new PageRefusal(422, error.message);
      // The facts now tell about the file that did not open (the same one, or another folder's).
      if (error instanceof DatabaseOpenError) throw new PageRefusal(409, `That did not open the data: ${error.fileName} ${error.words}.`);
      console.error('The recovery choice failed:', error);
      throw new PageRefusal(409, `That could not be done: ${(error as Error).message}`);
    } finally {
      busy = false;
    }
    return reply
      .code(303)
      .header('location', `/?key=${encodeURIComponent(pageKey)}`)
      .header('cache-control', 'no-store')
      .send();
  };

  const answering =
    <Q extends FastifyRequest>(handler: (request: Q, reply: FastifyReply) => Promise<FastifyReply>) =>
    async (request: Q, reply: FastifyReply) => {
      try {
        return await handler(request, reply);
      } catch (error) {
        if (error instanceof PageRefusal) return refuse(request, reply, error);
        throw error;
      }
    };

  const formField = (request: FastifyRequest, name: string): string | undefined => {
    const body = request.body as Record<string, unknown> | undefined;
    const value = body && typeof body === 'object' ? body[name] : undefined;
    return typeof value === 'string' ? value : undefined;
  };

  void app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: maxFormBytes },
      (_request, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body as string)));
      },
    );
    await scope.register(multipart, { limits: { files: 1, fields: 4, fieldSize: maxFormBytes, fileSize: maxBackupUploadBytes } });

    scope.post(
      '/recovery/start-fresh',
      answering((request, reply) => choose(request, reply, formField(request, 'key'), () => recovery.startFresh())),
    );
    scope.post(
      '/recovery/retry',
      answering((request, reply) => choose(request, reply, formField(request, 'key'), () => recovery.retry())),
    );
    scope.post(
      '/recovery/open-folder',
      answering((request, reply) => {
        const folder = formField(request, 'folder') ?? '';
        return choose(request, reply, formField(request, 'key'), () => recovery.openFolder(folder));
      }),
    );
    scope.post(
      '/recovery/restore',
      answering(async (request, reply) => {
        if (!request.isMultipart()) throw new PageRefusal(400, 'Send the restore form as multipart/form-data.');
        let key: string | undefined;
        let path = '';
        let staging: string | undefined;
        let upload: string | undefined;
        try {
          for await (const part of request.parts()) {
            if (part.type === 'field' && part.fieldname === 'key') {
              key = String(part.value);
              continue;
            }
            // The form puts the key first: nothing else is taken from a caller without it.
            mayChoose(request, key);
            if (part.type === 'field') {
              if (part.fieldname === 'path') path = String(part.value).trim();
              continue;
            }
            if (part.fieldname !== 'file' || upload) throw new PageRefusal(400, 'Send one backup file, in the "file" field.');
            if (!part.filename) {
              // An empty file field: the planner typed a path instead.
              part.file.resume();
              continue;
            }
            if (extname(part.filename).toLowerCase() !== '.sqlite')
              throw new PageRefusal(422, 'Choose a Planner backup: a .sqlite file made with Back up….');
            staging = mkdtempSync(join(tmpdir(), 'planner-recovery-upload-'));
            upload = join(staging, 'backup.sqlite');
            await pipeline(part.file, createWriteStream(upload, { mode: 0o600 }));
            if (part.file.truncated)
              throw new PageRefusal(
                413,
                `The backup is larger than the page takes (${maxBackupUploadBytes / 1024 ** 3} GiB); type its path instead.`,
              );
          }
          mayChoose(request, key);
          if (upload && path) throw new PageRefusal(400, 'Choose a backup file or type its path, not both.');
          if (!upload && !path) throw new PageRefusal(400, 'Choose a backup file, or type its path.');
          if (!upload) {
            if (!isAbsolute(path)) throw new PageRefusal(422, 'Type the backup file’s full path, from the root.');
            if (extname(path).toLowerCase() !== '.sqlite')
              throw new PageRefusal(422, 'Choose a Planner backup: a .sqlite file made with Back up….');
            if (!existsSync(path) || !statSync(path).isFile()) throw new PageRefusal(422, `There is no file at ${path}.`);
          }
          const file = upload ?? path;
          return await choose(request, reply, key, () => recovery.restore(file));
        } finally {
          if (staging) rmSync(staging, { recursive: true, force: true });
        }
      }),
    );
  });

  return {
    page(request, reply) {
      const key = (request.query as { key?: unknown } | undefined)?.key;
      // The first visit has no session cookie yet: the key in the printed address is the proof.
      if (!isPageKey(key)) return html(reply, 200, keyNeededPage());
      options.setSessionCookie(reply);
      return html(reply, 200, recoveryPage(recovery.facts, pageKey));
    },
  };
}
