/**
 * The contract between the local API and the sync client (electron/sync), which the host hands
 * to the API. Credentials go in through `updateSettings` and never come back
 * out: `settings()` tells only whether some are stored.
 *
 * What travels in the sync messages with a body (the wire's `Mutation`, a `Conflict`, the
 * settings and their input) is declared with those messages, in shared/operations/sync.ts.
 */
import { isLinkLocalOrMetadata } from './ip-address.js';
import type { SyncSettings, SyncSettingsInput } from './operations/sync.js';

export interface SyncStatus {
  configured: boolean;
  remote_url: string | null;
  online: boolean;
  syncing: boolean;
  last_push_at: string | null;
  last_pull_at: string | null;
  last_error: string | null;
  next_attempt_at: string | null;
  /**
   * How far this computer's clock runs ahead of the remote's, in ms, when that is more than
   * the remote accepts (docs/API.md "Sync"); null otherwise. Changes stamped that far ahead
   * wait in the outbox until the clocks agree.
   */
  clock_ahead_ms: number | null;
  /**
   * Which side must be updated before this replica can sync (docs/API.md "Sync", "Versions and
   * unknown data"): `this app` when the remote refused its protocol version, `the server` when
   * the remote speaks one older than this app accepts; null otherwise. Nothing leaves the
   * outbox meanwhile, and `last_error` says what to do.
   */
  update_required: 'this app' | 'the server' | null;
}

/** The status of an instance that syncs with no remote: the sync client's and the API's answer alike. */
export const notConfiguredStatus: Readonly<SyncStatus> = {
  configured: false,
  remote_url: null,
  online: false,
  syncing: false,
  last_push_at: null,
  last_pull_at: null,
  last_error: null,
  next_attempt_at: null,
  clock_ahead_ms: null,
  update_required: null,
};

export interface SyncRunSummary {
  pushed: number;
  rejected: number;
  pulled: number;
  /** This replica's changes that lost to later ones elsewhere (docs/API.md "Overruled edits"). */
  overruled: number;
  /** Attachment files sent to the remote and fetched from it. */
  files_sent: number;
  files_fetched: number;
  resynced: boolean;
  duration_ms: number;
  error: string | null;
}

/**
 * New settings that were not saved because the remote did not take them (docs/API.md "Sync",
 * "Checked before saved"): `field` names the setting to fix. The API answers it with 422.
 */
export class SyncSettingsProblem extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

export interface SyncControl {
  /** The environment this client syncs; other environments have no sync. */
  environmentId: string;
  status(): SyncStatus;
  run(): Promise<SyncRunSummary>;
  settings(): SyncSettings;
  updateSettings(input: SyncSettingsInput): Promise<SyncSettings>;
}

/** Hosts that never leave this computer, where plain http carries nothing over a network. */
function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/**
 * Why a remote URL may not be synced with, or null when it may (docs/API.md "Sync", "An
 * encrypted remote"). The API key or tokens and all planning data travel with every request,
 * so a remote on another computer must be https; plain http there needs the explicit opt-in
 * `allowInsecureHttp` (a network the planner trusts completely, e.g. a test bench). Link-local and
 * cloud metadata addresses are refused whatever the scheme (docs/API.md "Sync", "Checked before saved").
 */
export function remoteUrlProblem(remoteUrl: string, allowInsecureHttp = false): string | null {
  let url: URL;
  try {
    url = new URL(remoteUrl);
  } catch {
    return 'The server address must be a URL such as https://planner.example.com.';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'The server address must start with https://.';
  if (!url.hostname) return 'The server address must name a host.';
  if (url.username || url.password || url.search || url.hash) return 'The server address must not carry a user, a query or a fragment.';
  // Never a Planner server, and a replica that sent its key there would hand it to whatever answers.
  if (isLinkLocalOrMetadata(url.hostname))
    return 'The server address is a link-local or cloud metadata address, where no Planner server runs. Enter the address of the Planner server.';
  if (url.protocol === 'http:' && !isLoopback(url.hostname) && !allowInsecureHttp) {
    return 'The server address must use https: over plain http the key and all planning data travel readable. Plain http is allowed only for a server on this computer, or when unencrypted sync is explicitly allowed.';
  }
  return null;
}

/**
 * The sync protocol (docs/API.md "Sync", "Versions and unknown data"). 2: replica ids bound to
 * credentials, content hashes, `stale` and `deferred` answers, unknown fields and resources
 * kept. 3: pull cursors may be text (a remote on PostgreSQL). 4: a snapshot page in rows may
 * give a record's clocks in a compact form (`compactClocksProtocol`). Each side refuses the
 * other below `minSyncProtocol`: a version-1 replica would drop `stale` and `deferred` changes
 * from its outbox, a version-1 remote drops fields it does not know.
 */
export const syncProtocol = 4;
export const minSyncProtocol = 2;

/**
 * The protocol from which a replica reads a record's clocks in a snapshot page in rows in the
 * compact form `[clock, clocks with 0 for that clock]` (docs/API.md "Snapshot in rows",
 * docs/decisions/compact-field-clocks.md). A remote sends that form only to a replica that says
 * it speaks this protocol or a later one; a replica reads both forms, so an older remote's pages
 * load as before.
 */
export const compactClocksProtocol = 4;

/**
 * The field whose clock a snapshot page's compact clocks stand for, for a table part of these
 * `fields`: created_at, written with every field a record is made with.
 */
export function compactClocksFrom(fields: readonly string[]): string | undefined {
  return fields.includes('created_at') ? 'created_at' : fields[2];
}

/**
 * The protocol from which a replica takes a pull cursor as text as well as a number (3): a
 * remote on PostgreSQL gives text cursors, and refuses an older replica's pull (426) rather
 * than send it a cursor it would call malformed (docs/API.md "Pull cursors").
 */
export const textCursorProtocol = 3;

/**
 * A pull cursor (`/v1/sync/changes`, a snapshot's `seq`): a change number from a remote on
 * SQLite, text (`<transaction>-<position>`) from one on PostgreSQL. A replica keeps it as it came
 * and sends it back.
 */
export type SyncCursor = number | string;

const textCursor = /^(\d{1,20})-(\d{1,20})$/;

/** Whether a value is a cursor some remote gives out. */
export function isSyncCursor(value: unknown): value is SyncCursor {
  return typeof value === 'number' ? Number.isSafeInteger(value) && value >= 0 : typeof value === 'string' && textCursor.test(value);
}

/**
 * Whether the live channel's `announced` cursor is past a replica's own (undefined before its
 * first pull). Cursors of different kinds (the remote moved to another engine) count as past:
 * one pull too many costs less than one missed.
 */
export function cursorIsAfter(announced: SyncCursor, own: SyncCursor | undefined): boolean {
  if (own === undefined) return true;
  if (typeof announced === 'number' && typeof own === 'number') return announced > own;
  const a = typeof announced === 'string' ? textCursor.exec(announced) : null;
  const b = typeof own === 'string' ? textCursor.exec(own) : null;
  if (!a || !b) return true;
  const [ax, ap, bx, bp] = [a[1], a[2], b[1], b[2]].map((part) => BigInt(part!));
  return ax! > bx! || (ax === bx && ap! > bp!);
}

/** Request headers a replica sends with every sync request: its protocol and its schema version. */
export const syncProtocolHeader = 'x-planner-sync-protocol';
export const syncSchemaHeader = 'x-planner-schema';
