/**
 * Requests refused before any route runs: a URL whose percent-encoding is not UTF-8, a path
 * segment longer than any id or name, a request line and headers over Node's 16 KiB. Fastify
 * and Node answer these with bodies of their own; these handlers give them the documented
 * error body instead (docs/API.md "Errors"). Both the API and the browser host use them.
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, sendError } from '../errors.js';

/**
 * The router's limit for one path parameter, in UTF-16 units after decoding: the longest name
 * in a path is a custom field's, 100 characters, which is 200 units when they are emoji.
 */
export const maxPathParamLength = 200;

/** Fastify's `frameworkErrors` option: errors raised while the router reads the URL. */
export function answerFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  void sendError(reply, refusalOf(error.code));
}

function refusalOf(code: string): ApiError {
  switch (code) {
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new ApiError('uriTooLong', [
        { description: `A path segment is longer than ${maxPathParamLength} characters; no id or name is that long.` },
      ]);
    case 'FST_ERR_BAD_URL':
      return ApiError.badRequest('The URL is not valid: a percent-encoded part is not UTF-8.');
    default:
      return ApiError.badRequest('The request is malformed.');
  }
}

/**
 * Fastify's `clientErrorHandler` option: Node could not read the request at all (headers over
 * its limit, a timeout, bytes that are not HTTP). There is no request to answer through, so the
 * answer is written to the socket, which is then closed, as Node and Fastify do by default.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  // A connection the client reset has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const refusal =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? new ApiError('headersTooLarge', [
          { description: 'The request line and headers are over 16 KiB; send long filters in shorter parts.' },
        ])
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new ApiError('requestTimeout', [{ description: 'The request did not arrive in time.' }])
        : ApiError.badRequest('The request is not valid HTTP.');
  if (socket.writable) {
    const body = JSON.stringify(refusal.body());
    // An answer to HEAD has no body (a client would read it as the start of the next answer).
    const head = (error as { rawPacket?: Buffer }).rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
    socket.write(
      `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status]}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${head ? '' : body}`,
    );
  }
  socket.destroy(error);
}
