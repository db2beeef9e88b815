/**
 * The browser host's page key on the page's side: taken from the address the host printed,
 * kept in the origin's localStorage (which, unlike the session cookie, no other port of
 * 127.0.0.1 can read), removed from the address bar, and sent on every call to the host.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

class MemoryStorage {
  readonly items = new Map<string, string>();
  getItem(name: string) {
    return this.items.get(name) ?? null;
  }
  setItem(name: string, value: string) {
    this.items.set(name, value);
  }
}

class FakeEventSource {
  static opened: FakeEventSource[] = [];
  onmessage = null;
  onopen = null;
  constructor(readonly url: string) {
    FakeEventSource.opened.push(this);
  }
  close() {}
}

/** A page opened at `href`, with this storage; the modules are loaded fresh for it. */
async function pageAt(href: string, storage: MemoryStorage) {
  const replaced: string[] = [];
  vi.stubGlobal('location', { href });
  vi.stubGlobal('localStorage', storage);
  vi.stubGlobal('history', { state: null, replaceState: (_state: unknown, _title: string, url: string) => replaced.push(url) });
  vi.stubGlobal('EventSource', FakeEventSource);
  const fetchMock = vi.fn(async () => Response.json({ status: 200, headers: {}, body: {} }));
  vi.stubGlobal('fetch', fetchMock);
  vi.resetModules();
  const { createHttpTransport } = await import('../../renderer/api/transport.http.js');
  const { hostCall } = await import('../../renderer/api/host-call.js');
  return { transport: createHttpTransport(), hostCall, fetchMock, replaced };
}

afterEach(() => {
  vi.unstubAllGlobals();
  FakeEventSource.opened = [];
});

describe('the page key', () => {
  it('comes from the printed address, is kept, leaves the address bar, and goes with every call', async () => {
    const storage = new MemoryStorage();
    const page = await pageAt('http://127.0.0.1:4620/?key=abc_DEF-123', storage);
    await page.transport.request({ method: 'GET', path: '/v1/project' });
    await page.hostCall('GET', '/host/data-folder');
    const headers = page.fetchMock.mock.calls.map(
      (call) => (call as unknown as [string, RequestInit])[1].headers as Record<string, string>,
    );
    expect(headers.map((h) => h['x-planner-page-key'])).toEqual(['abc_DEF-123', 'abc_DEF-123']);
    expect(storage.getItem('planner.pageKey')).toBe('abc_DEF-123');
    expect(page.replaced).toEqual(['/']);
    // EventSource cannot send headers: the key rides in the stream's address.
    page.transport.onChange(() => {});
    expect(FakeEventSource.opened[0]!.url).toBe('/bridge/events?key=abc_DEF-123');
  });

  it('is the kept one when the page is opened again without it', async () => {
    const storage = new MemoryStorage();
    storage.setItem('planner.pageKey', 'kept-key');
    const page = await pageAt('http://127.0.0.1:4620/', storage);
    await page.transport.request({ method: 'GET', path: '/v1/project' });
    expect(
      ((page.fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1].headers as Record<string, string>)['x-planner-page-key'],
    ).toBe('kept-key');
    expect(page.replaced).toEqual([]);
  });
});
