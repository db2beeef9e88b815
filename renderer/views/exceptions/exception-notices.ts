/**
 * Which exceptions a desktop notification tells about (docs/API.md "Notifications"): those of
 * the kinds the user chose that this computer has not told them about yet, in one notice however
 * many there are, so a sync that brings in 40 changes gives one notification, not 40.
 *
 * What was told is remembered per user on this computer: the keys the inbox listed the last
 * time it was looked at. An exception that goes away and comes back is told again; one that
 * stays is told once. The first look on a computer only remembers: there is nothing "new" yet.
 */
import { exceptionKinds, type ExceptionItem, type ExceptionKind } from '../../../shared/exceptions.js';
import { maxNoticeBody, maxNoticeTitle, type DesktopNotice } from '../../../shared/ipc.js';
import type { Translate } from '../../i18n/index.js';

/** The notice's tag: a click on it opens the Exceptions screen. */
export const exceptionsNoticeTag = 'exceptions';

/** How many items the notice names; the rest are counted. */
const namedInNotice = 3;

export function newExceptionsNotice(
  items: readonly ExceptionItem[],
  kinds: readonly string[],
  told: ReadonlySet<string>,
  t: Translate,
  wordItem: (item: ExceptionItem) => string,
): DesktopNotice | null {
  const chosen = new Set(kinds);
  const fresh = items.filter((item) => chosen.has(item.kind) && !told.has(item.key));
  if (fresh.length === 0) return null;
  const lines = fresh.slice(0, namedInNotice).map(wordItem);
  if (fresh.length > namedInNotice) lines.push(t('exceptions.notice.more', { count: String(fresh.length - namedInNotice) }));
  return {
    title: clip(t.count('exceptions.notice.title', fresh.length), maxNoticeTitle),
    body: clip(lines.join('\n'), maxNoticeBody),
    tag: exceptionsNoticeTag,
  };
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** The kinds a user record names that this version knows, in the inbox's order. */
export function notifiedKinds(user: { notify_exceptions?: unknown } | null | undefined): ExceptionKind[] {
  // A list arriving by sync from another version may name kinds this one does not know: filtered below.
  const chosen = Array.isArray(user?.notify_exceptions) ? (user.notify_exceptions as unknown[]) : [];
  return exceptionKinds.filter((kind) => chosen.includes(kind));
}

const memoryKey = (userId: string) => `planner.exceptions.told.${userId}`;

/** What this computer told the user about, or undefined before its first look. */
export function recallTold(userId: string): Set<string> | undefined {
  try {
    const stored = globalThis.localStorage?.getItem(memoryKey(userId));
    if (stored === null || stored === undefined) return undefined;
    const keys: unknown = JSON.parse(stored);
    return new Set(Array.isArray(keys) ? keys.filter((key): key is string => typeof key === 'string') : []);
  } catch {
    return undefined;
  }
}

/** Remembers the keys the inbox lists now: bounded by the inbox itself. */
export function rememberTold(userId: string, keys: readonly string[]): void {
  try {
    globalThis.localStorage?.setItem(memoryKey(userId), JSON.stringify(keys));
  } catch {
    // No storage: each window starts again with a first look, which tells nothing.
  }
}
