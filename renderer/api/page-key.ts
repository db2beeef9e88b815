/**
 * The browser host's page key. The host prints its address with `?key=…`; the page keeps the
 * key in its origin's localStorage, takes it out of the address bar, and sends it on every
 * call to the host. localStorage belongs to this origin alone (port included), unlike the
 * session cookie, which the browser also sends to every other port of 127.0.0.1: the key is
 * what another local server never gets (electron/host/browser-host.ts).
 */
const storageName = 'planner.pageKey';
/** The header the host reads the key from (the event stream takes it as `?key=`). */
export const pageKeyHeader = 'x-planner-page-key';

let known: string | null | undefined;

/** This page's key: from the address on first use (then kept), else the one kept before. */
export function pageKey(): string | null {
  if (known !== undefined) return known;
  const place = globalThis.location;
  const storage = globalThis.localStorage;
  const fromAddress = place ? new URL(place.href).searchParams.get('key') : null;
  if (fromAddress) {
    storage?.setItem(storageName, fromAddress);
    const url = new URL(place!.href);
    url.searchParams.delete('key');
    globalThis.history?.replaceState(globalThis.history.state, '', url.pathname + url.search + url.hash);
  }
  known = fromAddress ?? storage?.getItem(storageName) ?? null;
  return known;
}

/** The header to add to a call to the host; none when the page has no key (the host says why). */
export function pageKeyHeaders(): Record<string, string> {
  const key = pageKey();
  return key ? { [pageKeyHeader]: key } : {};
}
