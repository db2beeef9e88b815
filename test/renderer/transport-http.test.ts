import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChangeNotice } from '../../renderer/api/transport.js';
import { ApiRequestError, TransportError } from '../../renderer/api/request-error.js';
import { createHttpTransport } from '../../renderer/api/transport.http.js';

/** Stands in for the browser's EventSource; the test pushes messages through `emit`. */
class FakeEventSource {
  static opened: FakeEventSource[] = [];
  onmessage: ((message: MessageEvent<string>) => void) | null = null;
  onopen: (() => void) | null = null;
  closed = false;
  constructor(readonly url: string) {
    FakeEventSource.opened.push(this);
  }
  /** The connection is made (at first, or again after a drop). */
  open() {
    this.onopen?.();
  }
  emit(data: string) {
    this.onmessage?.({ data } as MessageEvent<string>);
  }
  close() {
    this.closed = true;
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
  FakeEventSource.opened = [];
});

describe('http transport (browser host)', () => {
  it('posts the bridge request with the bridge header and returns the bridge response', async () => {
    const fetchMock = vi.fn(async () => Response.json({ status: 200, headers: {}, body: { ok: true } }));
    vi.stubGlobal('fetch', fetchMock);
    const response = await createHttpTransport().request({ method: 'GET', path: '/v1/project' });
    expect(response).toEqual({ status: 200, headers: {}, body: { ok: true } });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/bridge/request');
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('same-origin');
    expect(init.headers).toEqual({ 'content-type': 'application/json', 'x-planner-bridge': '1' });
    expect(JSON.parse(init.body as string)).toEqual({ method: 'GET', path: '/v1/project' });
  });

  it('turns a refusal by the host itself into an ApiRequestError carrying its message', async () => {
    const refusal = {
      reference: 'r',
      errors: [{ code: 10401, message: 'Not Logged In', description: 'Open the app page first.' }],
    };
    vi.stubGlobal('fetch', async () => Response.json(refusal, { status: 401 }));
    const error = await createHttpTransport()
      .request({ method: 'GET', path: '/v1/project' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect((error as ApiRequestError).message).toBe('Open the app page first.');
  });

  it('reports an unreachable host as a TransportError', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    const error = await createHttpTransport()
      .request({ method: 'GET', path: '/v1/project' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
  });

  it('shares one event stream among listeners and closes it after the last leaves', () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    const transport = createHttpTransport();
    const seen: ChangeNotice[] = [];
    const stopFirst = transport.onChange((events) => seen.push(events));
    const stopSecond = transport.onChange(() => {});
    expect(FakeEventSource.opened).toHaveLength(1);
    const stream = FakeEventSource.opened[0]!;
    expect(stream.url).toBe('/bridge/events');

    stream.emit(JSON.stringify([{ resource: 'project', id: 'p1', op: 'create' }]));
    stream.emit('not json');
    expect(seen).toEqual([[{ resource: 'project', id: 'p1', op: 'create' }]]);

    stopFirst();
    expect(stream.closed).toBe(false);
    stopSecond();
    expect(stream.closed).toBe(true);
  });

  it('tells listeners that changes may have been missed each time the stream (re)connects', () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    const transport = createHttpTransport();
    const seen: ChangeNotice[] = [];
    const stop = transport.onChange((notice) => seen.push(notice));
    const stream = FakeEventSource.opened[0]!;
    expect(seen).toEqual([]);
    stream.open();
    stream.emit(JSON.stringify([{ resource: 'board', id: 'b1', op: 'create' }]));
    stream.open();
    expect(seen).toEqual(['missed', [{ resource: 'board', id: 'b1', op: 'create' }], 'missed']);
    stop();
  });
});
