import { describe, expect, it } from 'vitest';
import type { BridgeRequest, BridgeResponse } from '../../shared/ipc.js';
import { ApiRequestError, createApiClient, describeError, fieldErrors, formErrors } from '../../renderer/api/client.js';
import type { Transport } from '../../renderer/api/transport.js';

/** A transport that records what it was asked and answers with a canned response. */
function fakeTransport(response: BridgeResponse): Transport & { sent: BridgeRequest[] } {
  const sent: BridgeRequest[] = [];
  return {
    sent,
    request: async (req) => {
      sent.push(req);
      return response;
    },
    onChange: () => () => {},
  };
}

const unprocessable: BridgeResponse = {
  status: 422,
  headers: { 'content-type': 'application/json' },
  body: {
    reference: 'ref-1',
    errors: [
      { code: 10422, message: 'Unprocessable Content', description: 'name may be at most 150 characters long', field: 'name' },
      { code: 10422, message: 'Unprocessable Content', description: 'external_ref is taken', field: 'external_ref' },
    ],
  },
};

describe('api client', () => {
  it('sends list options as query strings and leaves unset ones out', async () => {
    const transport = fakeTransport({ status: 200, headers: {}, body: { count: 0, limit: 50, offset: 0, data: [] } });
    const page = await createApiClient(transport).list('/v1/project', { limit: 50, sort: 'name:asc', filter: undefined });
    expect(page.count).toBe(0);
    expect(transport.sent).toEqual([{ method: 'GET', path: '/v1/project', query: { limit: '50', sort: 'name:asc' } }]);
  });

  it('addresses one record by its id, escaped', async () => {
    const transport = fakeTransport({ status: 204, headers: {}, body: null });
    await createApiClient(transport).remove('/v1/project', 'a/b');
    expect(transport.sent[0]).toEqual({ method: 'DELETE', path: '/v1/project/a%2Fb' });
  });

  it('sends a partial update as PUT with only the changed fields', async () => {
    const transport = fakeTransport({ status: 200, headers: {}, body: { id: 'p1', name: 'Bathroom' } });
    const record = await createApiClient(transport).update('/v1/project', 'p1', { name: 'Bathroom' });
    expect(record).toEqual({ id: 'p1', name: 'Bathroom' });
    expect(transport.sent[0]).toEqual({ method: 'PUT', path: '/v1/project/p1', body: { name: 'Bathroom' } });
  });

  it('throws an ApiRequestError with the status and the error body for a non-2xx answer', async () => {
    const client = createApiClient(fakeTransport(unprocessable));
    const error = await client.create('/v1/project', { name: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect((error as ApiRequestError).status).toBe(422);
    expect((error as ApiRequestError).reference).toBe('ref-1');
  });

  it('gives per-field messages for a 422, and keeps problems with fields a form lacks', async () => {
    const error = await createApiClient(fakeTransport(unprocessable))
      .create('/v1/project', {})
      .catch((e: unknown) => e);
    expect(fieldErrors(error)).toEqual({
      name: 'name may be at most 150 characters long',
      external_ref: 'external_ref is taken',
    });
    expect(formErrors(error, ['name', 'code'])).toEqual(['external_ref: external_ref is taken']);
  });

  it('describes a 404 by the API description and a 500 with its reference', () => {
    const notFound = new ApiRequestError(404, {
      reference: 'r404',
      errors: [{ code: 10404, message: 'Not Found', description: 'No record with that id.' }],
    });
    expect(describeError(notFound)).toBe('No record with that id.');
    const internal = new ApiRequestError(500, {
      reference: 'r500',
      errors: [{ code: 10500, message: 'Internal Server Error', description: 'Something went wrong on our side.' }],
    });
    expect(describeError(internal)).toBe('Something went wrong on our side. (reference r500)');
  });

  it('still has a readable message when the body is not the documented error body', () => {
    expect(describeError(new ApiRequestError(404, null))).toBe('That record no longer exists.');
    expect(describeError(new ApiRequestError(503, null))).toBe('The planner ran into a problem.');
  });
});
