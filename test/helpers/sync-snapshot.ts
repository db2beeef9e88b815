/**
 * What the in-process snapshot tests (test/sync/snapshot-rows, compact-clocks, live, versions)
 * do again and again: close what a test started once it is over, and walk a remote's snapshot
 * page by page to its end (docs/API.md "Sync").
 */
import { afterEach, expect } from 'vitest';
import { call, type Node } from './sync-cluster.js';

export type Cleanups = (() => Promise<void> | void)[];

/**
 * A list the file's tests push their closes onto (remotes, replicas, proxies, folders); after
 * each test they run, the last pushed first, so a replica closes before its remote.
 */
export function cleanupsAfterEach(): Cleanups {
  const cleanups: Cleanups = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return cleanups;
}

/**
 * Every page of a remote's snapshot asked with `query` (its limit, its format) and these
 * headers, each answered 200, from the first to the one whose cursor is null; at most `most`.
 */
export async function snapshotPages(remote: Pick<Node, 'url'>, headers: Record<string, string>, query: string, most = 200): Promise<any[]> {
  const pages: any[] = [];
  let cursor: string | null = null;
  do {
    if (pages.length === most) throw new Error('the snapshot did not end');
    const res = await call({ url: remote.url, headers }, 'GET', `/v1/sync/snapshot?${query}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    pages.push(res.body);
    cursor = res.body.cursor;
  } while (cursor !== null);
  return pages;
}
