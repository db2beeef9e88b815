/**
 * The IPC bridge and real HTTP, served by the same local instance, must give the same answers:
 * the renderer is just another client of the Planning API (docs/architecture.md "Processes").
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BridgeResponse } from '../../shared/ipc.js';
import { openBridgeFixture, type BridgeFixture, type HttpAnswer } from './bridge-fixture.js';

vi.mock('electron', () => ({ BrowserWindow: { getAllWindows: () => [] }, protocol: {} }));

/** Error references are fresh uuids per response; everything else must match exactly. */
function comparable(response: HttpAnswer) {
  const body = response.body as { reference?: unknown } | null;
  const withoutReference =
    body && typeof body === 'object' && typeof body.reference === 'string' ? { ...body, reference: '<reference>' } : body;
  return { status: response.status, contentType: response.headers['content-type'], body: withoutReference };
}

let fixture: BridgeFixture;
const bridge = (payload: unknown) => fixture.bridge(payload);
const http = (...args: Parameters<BridgeFixture['http']>) => fixture.http(...args);

beforeAll(async () => {
  fixture = await openBridgeFixture();
});

afterAll(async () => {
  await fixture?.close();
});

describe('the IPC bridge answers exactly as HTTP does', () => {
  let viaBridge: BridgeResponse;
  let viaHttp: HttpAnswer;
  const idOf = (response: { body: unknown }) => (response.body as { id: string }).id;

  it('creates a project, answering with the record HTTP then returns for it', async () => {
    viaBridge = await bridge({ method: 'POST', path: '/v1/project', body: { name: 'Made over IPC' } });
    viaHttp = await http('POST', '/v1/project', {}, { name: 'Made over HTTP' });
    expect(viaBridge.status).toBe(201);
    expect(comparable(viaBridge).contentType).toBe(comparable(viaHttp).contentType);
    expect(Object.keys(viaBridge.body as object).sort()).toEqual(Object.keys(viaHttp.body as object).sort());
    expect((await http('GET', `/v1/project/${idOf(viaBridge)}`)).body).toEqual(viaBridge.body);
    expect((await bridge({ method: 'GET', path: `/v1/project/${idOf(viaHttp)}` })).body).toEqual(viaHttp.body);
  });

  it('lists projects identically', async () => {
    const listed = await bridge({ method: 'GET', path: '/v1/project' });
    expect(listed.status).toBe(200);
    expect(comparable(listed)).toEqual(comparable(await http('GET', '/v1/project')));
    expect(JSON.stringify(listed.body)).toContain(idOf(viaBridge));
    expect(JSON.stringify(listed.body)).toContain(idOf(viaHttp));
  });

  it('gets one project identically', async () => {
    const path = `/v1/project/${idOf(viaBridge)}`;
    const got = await bridge({ method: 'GET', path });
    expect(got.status).toBe(200);
    expect(comparable(got)).toEqual(comparable(await http('GET', path)));
  });

  it('answers a 422 for an invalid field identically', async () => {
    const got = await bridge({ method: 'POST', path: '/v1/project', body: { name: 5 } });
    expect(got.status).toBe(422);
    expect(comparable(got)).toEqual(comparable(await http('POST', '/v1/project', {}, { name: 5 })));
  });

  it('answers a 404 for an unknown id identically', async () => {
    const path = '/v1/project/0190a5b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b';
    const got = await bridge({ method: 'GET', path });
    expect(got.status).toBe(404);
    expect(comparable(got)).toEqual(comparable(await http('GET', path)));
  });

  it('uploads a file as multipart/form-data and downloads it back as base64', async () => {
    const board = await bridge({ method: 'POST', path: '/v1/board', body: { name: 'Files' } });
    const collection = await bridge({ method: 'POST', path: '/v1/collection', body: { name: 'With files', board_id: idOf(board) } });
    const collectionId = idOf(collection);
    const content = Buffer.from([0, 1, 2, 250, 251, 252]);
    const uploaded = await bridge({
      method: 'POST',
      path: `/v1/collection/${collectionId}/attachment/upload`,
      upload: {
        filename: 'scan "1".bin',
        contentType: 'application/octet-stream',
        data: content.toString('base64'),
        fields: { filename: 'Scan “1”.bin' },
      },
    });
    expect(uploaded.status).toBe(201);
    expect(uploaded.body).toMatchObject({
      filename: 'Scan “1”.bin',
      type: 'upload',
      bytes: content.length,
      content_type: 'application/octet-stream',
    });
    const downloaded = await bridge({ method: 'GET', path: `/v1/collection/${collectionId}/attachment/${idOf(uploaded)}/download` });
    expect(downloaded.status).toBe(200);
    expect(downloaded.body).toEqual({ encoding: 'base64', contentType: 'application/octet-stream', data: content.toString('base64') });
  });

  it('answers a 400 for a malformed query identically', async () => {
    const got = await bridge({ method: 'GET', path: '/v1/project', query: { limit: 'abc' } });
    expect(got.status).toBe(400);
    expect(comparable(got)).toEqual(comparable(await http('GET', '/v1/project', { limit: 'abc' })));
  });
});
