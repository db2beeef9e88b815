/**
 * Every write request is a command (docs/API.md "Commands and undo"), also on the routes that
 * are no resource's create, update or delete (planning a collection, moving it back to the
 * backlog, splitting a card, stopping a timer …). Their handlers are wrapped as they are added:
 * what the handler writes before it returns is stamped with one command, described by the
 * route's summary unless the request describes it, and the answer names it in
 * `x-planner-command-id`. The resource routes (crud.ts), the batch commands and the routes
 * marked `commandOnRecords` (which write in an asynchronous transaction: asCommandOnRecords)
 * run their commands themselves, in one transaction each; a route marked `writesNothing` (promise
 * dates, asked by POST for its body) is no command.
 */
import type { RouteOptions } from 'fastify';
import { findCommand } from '../../store/command-book.js';
import { ApiError } from '../errors.js';
import { commandFor, commandIdHeader } from './request-command.js';

const writeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Routes that are no planner's action: sign-in and tokens (no environment's data), a replica's
 * push (other replicas' commands) and the files it sends after (content, no record), an admin
 * removing data kept for other versions (no record, nothing to undo), and the routes that are
 * commands already.
 */
function isPlannerWrite(route: RouteOptions): boolean {
  const methods = [route.method].flat();
  const config = route.config ?? {};
  if (!methods.some((m) => writeMethods.has(m)) || config.public || config.doc?.resource || config.commandOnRecords || config.writesNothing)
    return false;
  return route.url.startsWith('/v1/') && !/^\/v1\/(command|oauth|sync\/push|sync\/attachment|sync\/kept)(\/|$)/.test(route.url);
}

/** Wraps a write route's handler so that what it writes is one command (see the file head). */
export function commandEveryWrite(route: RouteOptions): void {
  if (!isPlannerWrite(route)) return;
  const handler = route.handler;
  const description = route.config?.doc?.summary ?? `${[route.method].flat().join(' ')} ${route.url}`;
  route.handler = function (request, reply) {
    const store = request.ctx?.store;
    if (!store) return handler.call(this, request, reply);
    const meta = commandFor(request, description);
    if (findCommand(store, meta.id)) throw ApiError.conflict(`A command with id ${meta.id} was done already.`);
    // Named before the handler runs, since a handler may send its answer itself; taken off
    // again below when nothing was written.
    reply.header(commandIdHeader, meta.id);
    try {
      return store.duringCommand(meta, () => handler.call(this, request, reply));
    } finally {
      if (!reply.sent && !findCommand(store, meta.id)) reply.removeHeader(commandIdHeader);
    }
  };
}
