/**
 * The bridge contract between the renderer and the Planning API. The renderer sends a
 * `BridgeRequest`; main (over IPC) or the browser host (over HTTP) answers with the
 * `BridgeResponse` that the very same Fastify route produced. Change events flow back the
 * other way so react-query can refresh what changed.
 *
 * The payload check lives here so that both hosts refuse exactly the same malformed input.
 */
import { isUuid } from './ids.js';
import type { LocalApiChange, LocalApiOutcome, LocalApiState } from './local-api.js';
import type { WorkshopChange, WorkshopOutcome, WorkshopState } from './workshop.js';

export const bridgeChannels = {
  /** renderer → main, invoke/handle: one API request. */
  request: 'planner:request',
  /** main → renderer, send/on: a batch of change events. */
  change: 'planner:change',
} as const;

/**
 * The desktop shell's own channels (Electron only; the browser host has none of them, except
 * the local API's, which it offers as `/host/local-api`). Main checks the sender and the
 * payload of each, exactly as for `request`; a channel not listed here is never answered or
 * listened to.
 */
export const shellChannels = {
  /** main → renderer, send/on: a menu item was chosen (`MenuCommand`). */
  menu: 'planner:menu',
  /** renderer → main, invoke: save bytes the renderer made (an export) through a save dialog. */
  saveFile: 'planner:save-file',
  /** renderer → main, invoke: choose a file to attach through an open dialog. */
  openAttachment: 'planner:open-attachment',
  /** renderer → main, invoke: back up the data folder to a file the planner chooses. */
  backup: 'planner:backup',
  /** renderer → main, invoke: replace the data with a backup the planner chooses. */
  restore: 'planner:restore',
  /** renderer → main, invoke: sign in to a remote in the system browser (OAuth with PKCE). */
  signIn: 'planner:sign-in',
  /** renderer → main, invoke: read or change the shell's own settings. */
  getSettings: 'planner:get-shell-settings',
  setSettings: 'planner:set-shell-settings',
  /** renderer → main, invoke: an error in the page, to be logged in main's log. */
  reportError: 'planner:report-error',
  /** renderer → main, invoke: the local API's state; switch it on or off or move its port; a new key (shared/local-api.ts). */
  localApiState: 'planner:local-api-state',
  changeLocalApi: 'planner:change-local-api',
  newLocalApiKey: 'planner:new-local-api-key',
  /**
   * renderer → main, invoke: workshop mode (shared/workshop.ts, desktop only): its state; switch
   * it on or off or move it; a new pairing code; revoke a paired device. No device key and no
   * private key ever crosses.
   */
  workshopState: 'planner:workshop-state',
  changeWorkshop: 'planner:change-workshop',
  newPairingCode: 'planner:new-pairing-code',
  revokeDevice: 'planner:revoke-device',
  /** renderer → main, invoke: where the data folder is (`DataFolder`); open it in the file manager. */
  dataFolder: 'planner:data-folder',
  openDataFolder: 'planner:open-data-folder',
  /** renderer → main, invoke: show a desktop notification (`DesktopNotice`). */
  notify: 'planner:notify',
  /** main → renderer, send/on: the planner clicked a notification the page showed (its `DesktopNotice.tag`). */
  noticeClicked: 'planner:notice-clicked',
} as const;

/** The shell's channels main sends on and the page listens to; the page invokes all the others. */
export const shellChannelsFromMain: readonly string[] = [shellChannels.menu, shellChannels.noticeClicked];

/**
 * A desktop notification the page asks for (docs/API.md "Notifications"): main shows it with
 * the system's notifications, since the page itself is refused every permission
 * (docs/architecture.md "Electron security"). `tag` comes back when it is clicked.
 */
export interface DesktopNotice {
  /** At most `maxNoticeTitle` characters. */
  title: string;
  /** At most `maxNoticeBody` characters. */
  body: string;
  /** What the page does on a click, e.g. `exceptions`: at most 64 letters, digits, `-` or `_`. */
  tag: string;
}

export const maxNoticeTitle = 200;
export const maxNoticeBody = 1000;

/** Validates an untrusted notice: the notice, or what is wrong with it. */
export function parseDesktopNotice(payload: unknown): DesktopNotice | { error: string } {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return { error: 'a notice must be an object' };
  const p = payload as Record<string, unknown>;
  for (const key of Object.keys(p)) if (!['title', 'body', 'tag'].includes(key)) return { error: `unknown key ${key}` };
  if (typeof p.title !== 'string' || p.title.length === 0 || p.title.length > maxNoticeTitle)
    return { error: `title must be text of 1 to ${maxNoticeTitle} characters` };
  if (typeof p.body !== 'string' || p.body.length > maxNoticeBody)
    return { error: `body must be text of at most ${maxNoticeBody} characters` };
  if (typeof p.tag !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(p.tag)) return { error: 'tag must be 1 to 64 letters, digits, - or _' };
  return { title: p.title, body: p.body, tag: p.tag };
}

/** Where the planner's data lives: shown in Settings, so a planner can find and copy it. */
export interface DataFolder {
  path: string;
}

/** Opening a folder in the file manager: `problem` says why it did not open. */
export interface OpenFolderResult {
  problem: string | null;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface BridgeRequest {
  method: HttpMethod;
  /** Path under the API root, starting with `/v1/`. */
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  /** A file for a multipart route (`…/attachment/upload`); a POST with it carries no `body`. */
  upload?: BridgeUpload;
  /**
   * The scenario the request runs in (docs/API.md "Scenarios"): the host sends it as the
   * `x-planner-scenario` header, which a bridged call cannot set itself.
   */
  scenario?: string;
}

/**
 * A file sent through the bridge. The bridge carries structured-clone or JSON values only, so
 * the content travels base64-encoded; the host turns it into the `multipart/form-data` body
 * the API's upload route reads: the `fields` as text parts, then the content as the `file` part.
 */
export interface BridgeUpload {
  /** The file part's name (1-255 characters). */
  filename: string;
  /** `type/subtype`, e.g. `application/pdf`. */
  contentType: string;
  /** The content, base64-encoded: at most `maxBridgeUploadBytes` once decoded. */
  data: string;
  /** Text fields sent with the file, e.g. `{card_id, filename}`. */
  fields?: Record<string, string>;
}

/** The API's upload limit (`/attachment/upload` answers 413 above it). */
export const maxBridgeUploadBytes = 25 * 1024 * 1024;

export interface BridgeResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export interface ChangeEvent {
  /** Resource name as in `shared/resources`, e.g. `project`. */
  resource: string;
  id: string;
  op: 'create' | 'update' | 'delete';
  /** A change only to data kept for another version (docs/API.md "Versions and unknown data"). */
  kept?: true;
}

/**
 * What a menu item asks the page to do. `undo`/`redo` mean the app's undo (moves, edits, plan
 * and unplan); when focus is in a text field the page should undo the typing instead
 * (`document.execCommand('undo')`), since the menu item replaces the native text undo.
 * Chromium gives the page a key press first and the menu's accelerator only fires when the
 * page did not handle it, so a page that handles Ctrl+Z itself must call `preventDefault()`:
 * then one key press acts once, and the menu command arrives for clicks and unhandled keys.
 */
export type MenuCommand = 'undo' | 'redo' | 'new-collection' | 'export-time-report' | 'open-settings' | 'print-plan';
export const menuCommands: readonly MenuCommand[] = ['undo', 'redo', 'new-collection', 'export-time-report', 'open-settings', 'print-plan'];

/**
 * The keys of the menu commands (Electron accelerator syntax: CmdOrCtrl is Cmd on macOS,
 * Ctrl elsewhere). The page's own shortcuts and its shortcut list use the same keys.
 */
export const menuAccelerators: Readonly<Record<MenuCommand, string>> = {
  undo: 'CmdOrCtrl+Z',
  redo: 'CmdOrCtrl+Shift+Z',
  'new-collection': 'CmdOrCtrl+N',
  'export-time-report': 'CmdOrCtrl+E',
  'open-settings': 'CmdOrCtrl+,',
  'print-plan': 'CmdOrCtrl+P',
};

export interface MenuCommandMessage {
  command: MenuCommand;
}

/**
 * Export formats the save dialog writes; main enforces the file extension of each. `txt` is a
 * DATEV payroll file (docs/API.md "Payroll files").
 */
export type ExportFormat = 'csv' | 'xlsx' | 'pdf' | 'txt';

export interface SaveFileRequest {
  format: ExportFormat;
  /** A file name without folders, e.g. `hours-2025-w23.csv`; main keeps only a safe base name. */
  suggestedName: string;
  /** The file's content, base64-encoded (at most 100 MiB once decoded). */
  data: string;
}

/** `refused`: the chosen name has another extension; `failed`: writing went wrong. */
export type SaveFileResult =
  { status: 'saved'; fileName: string } | { status: 'canceled' } | { status: 'refused' | 'failed'; message: string };

export interface OpenAttachmentRequest {
  /** Narrows the allowed extensions (lower case, no dot); it can never widen them. */
  extensions?: string[];
}

export type OpenAttachmentResult =
  | { status: 'chosen'; fileName: string; contentType: string; bytes: number; data: string }
  | { status: 'canceled' }
  | { status: 'refused'; message: string };

export type BackupResult = { status: 'saved'; fileName: string } | { status: 'canceled' } | { status: 'failed'; message: string };

export type RestoreResult =
  { status: 'restored'; createdAt: string } | { status: 'canceled' } | { status: 'refused' | 'failed'; message: string };

export interface SignInRequest {
  /** The remote instance, e.g. `https://planner.example.com`. */
  remote_url: string;
  /** The public OAuth client registered on the remote for the desktop app. */
  client_id: string;
}

/** Tokens never come back to the page: it only learns whether sign-in worked. */
export type SignInResult = { status: 'signed-in'; remote_url: string } | { status: 'canceled' | 'failed'; message: string };

export type ShellLanguage = 'en' | 'nl';

export interface ShellSettings {
  /** The menu's and dialogs' language; `system` follows the OS (app.getLocale()). */
  language: ShellLanguage | 'system';
  /** On close with changes not yet sent: ask, or sync first (with a time limit). */
  closeWithPending: 'ask' | 'sync-first';
}

export interface ErrorReport {
  message: string;
  stack?: string;
  /** Where it came from: `window.onerror`, an unhandled rejection, a React error boundary… */
  source?: string;
  /** The page already showed it to the planner (an in-app notice): main only logs it. */
  shown?: boolean;
}

/** What the preload exposes as `window.planner`. */
export interface PlannerBridge {
  request(request: BridgeRequest): Promise<BridgeResponse>;
  /** Returns a function that removes the listener. */
  onChange(listener: (events: ChangeEvent[]) => void): () => void;
  /** Menu commands for the page (see `MenuCommand`). Returns a function that removes the listener. */
  onMenuCommand(listener: (command: MenuCommand) => void): () => void;
  saveFile(request: SaveFileRequest): Promise<SaveFileResult>;
  openAttachment(request?: OpenAttachmentRequest): Promise<OpenAttachmentResult>;
  backup(): Promise<BackupResult>;
  restore(): Promise<RestoreResult>;
  signIn(request: SignInRequest): Promise<SignInResult>;
  getShellSettings(): Promise<ShellSettings>;
  setShellSettings(changes: Partial<ShellSettings>): Promise<ShellSettings>;
  /** Resolves with a reference to show the planner, which is also in the log. */
  reportError(report: ErrorReport): Promise<{ reference: string }>;
  getLocalApi(): Promise<LocalApiState>;
  changeLocalApi(change: LocalApiChange): Promise<LocalApiOutcome>;
  /** The new key is in the answer, this once; the old key stops working. */
  newLocalApiKey(): Promise<LocalApiOutcome>;
  getWorkshop(): Promise<WorkshopState>;
  changeWorkshop(change: WorkshopChange): Promise<WorkshopOutcome>;
  /** A new pairing code replaces the one on screen. */
  newPairingCode(): Promise<WorkshopOutcome>;
  /** The device's key is refused from its next request on. */
  revokeDevice(id: string): Promise<WorkshopOutcome>;
  getDataFolder(): Promise<DataFolder>;
  openDataFolder(): Promise<OpenFolderResult>;
  /** Shows a desktop notification; `shown` is false where the system has none. */
  notify(notice: DesktopNotice): Promise<{ shown: boolean }>;
  /** A notification shown through `notify` was clicked: its tag. Returns a function that removes the listener. */
  onNoticeClick(listener: (tag: string) => void): () => void;
}

const methods: readonly string[] = ['GET', 'POST', 'PUT', 'DELETE'];
const maxPathLength = 2048;

/**
 * Validates an untrusted bridge payload. Returns the request, or a description of what is
 * wrong. Paths must stay inside `/v1/` so the bridge cannot reach anything else the host
 * might serve.
 */
export function parseBridgeRequest(payload: unknown): BridgeRequest | { error: string } {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    return { error: 'request must be an object' };
  }
  const p = payload as Record<string, unknown>;
  for (const key of Object.keys(p)) {
    if (!['method', 'path', 'query', 'body', 'upload', 'scenario'].includes(key)) return { error: `unknown key ${key}` };
  }
  if (typeof p.method !== 'string' || !methods.includes(p.method)) {
    return { error: 'method must be one of GET, POST, PUT, DELETE' };
  }
  if (
    typeof p.path !== 'string' ||
    !p.path.startsWith('/v1/') ||
    p.path.length > maxPathLength ||
    p.path.includes('?') ||
    p.path.includes('#') ||
    p.path.split('/').some((segment) => segment === '..' || segment === '.')
  ) {
    return { error: 'path must be an API path under /v1/ without a query string' };
  }
  if (p.query !== undefined) {
    if (typeof p.query !== 'object' || p.query === null || Array.isArray(p.query)) {
      return { error: 'query must be an object of strings' };
    }
    for (const value of Object.values(p.query)) {
      if (typeof value !== 'string') return { error: 'query must be an object of strings' };
    }
  }
  if (p.scenario !== undefined && !isUuid(p.scenario)) return { error: 'scenario must be a scenario id (a UUID)' };
  const request: BridgeRequest = { method: p.method as HttpMethod, path: p.path };
  if (p.query !== undefined) request.query = p.query as Record<string, string>;
  if (p.scenario !== undefined) request.scenario = p.scenario;
  if (p.body !== undefined) request.body = p.body;
  if (p.upload !== undefined) {
    if (p.method !== 'POST' || p.body !== undefined) return { error: 'an upload goes with a POST and no body' };
    const upload = parseUpload(p.upload);
    if ('error' in upload) return upload;
    request.upload = upload;
  }
  return request;
}

const contentTypePattern = /^[\w.+-]+\/[\w.+-]+$/;
const fieldNamePattern = /^[a-z][a-z0-9_]{0,63}$/;
// Checked without a backtracking pattern: the data may be tens of megabytes long.
const base64Characters = /^[A-Za-z0-9+/]*={0,2}$/;

function parseUpload(value: unknown): BridgeUpload | { error: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { error: 'upload must be an object' };
  const u = value as Record<string, unknown>;
  for (const key of Object.keys(u)) {
    if (!['filename', 'contentType', 'data', 'fields'].includes(key)) return { error: `unknown upload key ${key}` };
  }
  if (typeof u.filename !== 'string' || u.filename.length === 0 || u.filename.length > 255) {
    return { error: 'upload.filename must be 1-255 characters' };
  }
  if (typeof u.contentType !== 'string' || u.contentType.length > 255 || !contentTypePattern.test(u.contentType)) {
    return { error: 'upload.contentType must be a media type like application/pdf' };
  }
  const maxLength = Math.ceil(maxBridgeUploadBytes / 3) * 4;
  if (typeof u.data !== 'string' || u.data.length % 4 !== 0 || u.data.length > maxLength || !base64Characters.test(u.data)) {
    return { error: `upload.data must be base64 of at most ${maxBridgeUploadBytes / 1024 / 1024} MiB` };
  }
  const upload: BridgeUpload = { filename: u.filename, contentType: u.contentType, data: u.data };
  if (u.fields !== undefined) {
    if (typeof u.fields !== 'object' || u.fields === null || Array.isArray(u.fields))
      return { error: 'upload.fields must be an object of strings' };
    for (const [name, text] of Object.entries(u.fields)) {
      if (!fieldNamePattern.test(name) || typeof text !== 'string' || text.length > 65_535) {
        return { error: 'upload.fields must map lower-case names to strings' };
      }
    }
    upload.fields = u.fields as Record<string, string>;
  }
  return upload;
}
