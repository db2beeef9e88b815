/**
 * The shell's channels (`shellChannels`): each handler first checks that the sender is an app
 * frame, then validates the payload, and only then acts. A refused sender or a malformed
 * payload rejects the invoke with "Refused: …"; nothing is done. Channels take no payload
 * unless listed with a parser, and any payload sent to those is refused too.
 */
import { BrowserWindow, type BaseWindow, type IpcMain, type IpcMainInvokeEvent } from 'electron';
import {
  parseDesktopNotice,
  shellChannels,
  type BackupResult,
  type DataFolder,
  type DesktopNotice,
  type ErrorReport,
  type OpenFolderResult,
  type OpenAttachmentResult,
  type RestoreResult,
  type SaveFileRequest,
  type SaveFileResult,
  type ShellSettings,
  type SignInRequest,
  type SignInResult,
} from '../../shared/ipc.js';
import { parseLocalApiChange, type LocalApiChange, type LocalApiOutcome, type LocalApiState } from '../../shared/local-api.js';
import {
  parseDeviceId,
  parseWorkshopChange,
  type WorkshopChange,
  type WorkshopOutcome,
  type WorkshopState,
} from '../../shared/workshop.js';
import { parseErrorReport } from './error-reports.js';
import { parseOpenAttachmentRequest, parseSaveFileRequest } from './file-dialogs.js';
import type { SenderCheck } from './ipc.js';
import { parseSignInRequest } from './oauth-loopback.js';
import { parseShellSettingsChange } from './shell-settings.js';

export interface ShellServices {
  saveFile(window: BaseWindow | undefined, request: SaveFileRequest & { content: Buffer }): Promise<SaveFileResult>;
  openAttachment(window: BaseWindow | undefined, extensions: string[]): Promise<OpenAttachmentResult>;
  backup(window: BaseWindow | undefined): Promise<BackupResult>;
  restore(window: BaseWindow | undefined): Promise<RestoreResult>;
  signIn(request: SignInRequest): Promise<SignInResult>;
  getSettings(): ShellSettings;
  setSettings(change: Partial<ShellSettings>): ShellSettings;
  /** Returns the log reference, or undefined when the report was dropped (too many). */
  reportError(report: ErrorReport): string | undefined;
  /** The local API (electron/host/local-api.ts), the same service the browser host uses. */
  localApiState(): Promise<LocalApiState>;
  changeLocalApi(change: LocalApiChange): Promise<LocalApiOutcome>;
  newLocalApiKey(): Promise<LocalApiOutcome>;
  /** Workshop mode (electron/host/workshop-mode.ts). */
  workshopState(): Promise<WorkshopState>;
  changeWorkshop(change: WorkshopChange): Promise<WorkshopOutcome>;
  newPairingCode(): Promise<WorkshopOutcome>;
  revokeDevice(id: string): Promise<WorkshopOutcome>;
  dataFolder(): DataFolder;
  openDataFolder(): Promise<OpenFolderResult>;
  /** Shows the notice (desktop-notices.ts) for the window that asked. */
  notify(window: BaseWindow | undefined, notice: DesktopNotice): { shown: boolean };
}

type Parse<T> = (payload: unknown) => T | { error: string };
type WindowOf = (event: IpcMainInvokeEvent) => BaseWindow | undefined;

const noPayload: Parse<undefined> = (payload) => (payload === undefined ? undefined : { error: 'this request takes no payload' });

function failed(parsed: unknown): parsed is { error: string } {
  return typeof parsed === 'object' && parsed !== null && 'error' in parsed && typeof (parsed as { error: unknown }).error === 'string';
}

function windowOfSender(event: IpcMainInvokeEvent): BaseWindow | undefined {
  return BrowserWindow.fromWebContents(event.sender) ?? undefined;
}

/** Registers every shell channel; returns a function that removes them all. */
export function registerShellHandlers(
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>,
  services: ShellServices,
  isTrustedSender: SenderCheck,
  windowOf: WindowOf = windowOfSender,
): () => void {
  const registered: string[] = [];
  function handle<T>(channel: string, parse: Parse<T>, run: (event: IpcMainInvokeEvent, payload: T) => unknown): void {
    registered.push(channel);
    ipcMain.handle(channel, async (event, payload: unknown) => {
      if (!isTrustedSender(event)) throw new Error('Refused: the request did not come from the app.');
      const parsed = parse(payload);
      if (failed(parsed)) throw new Error(`Refused: ${parsed.error}`);
      return run(event, parsed as T);
    });
  }

  handle(shellChannels.saveFile, parseSaveFileRequest, (event, request) => services.saveFile(windowOf(event), request));
  handle(shellChannels.openAttachment, parseOpenAttachmentRequest, (event, { extensions }) =>
    services.openAttachment(windowOf(event), extensions),
  );
  handle(shellChannels.backup, noPayload, (event) => services.backup(windowOf(event)));
  handle(shellChannels.restore, noPayload, (event) => services.restore(windowOf(event)));
  handle(shellChannels.signIn, parseSignInRequest, (_event, request) => services.signIn(request));
  handle(shellChannels.getSettings, noPayload, () => services.getSettings());
  handle(shellChannels.setSettings, parseShellSettingsChange, (_event, change) => services.setSettings(change));
  handle(shellChannels.reportError, parseErrorReport, (_event, report) => ({ reference: services.reportError(report) ?? 'not-logged' }));
  handle(shellChannels.localApiState, noPayload, () => services.localApiState());
  handle(shellChannels.changeLocalApi, parseLocalApiChange, (_event, change) => services.changeLocalApi(change));
  handle(shellChannels.newLocalApiKey, noPayload, () => services.newLocalApiKey());
  handle(shellChannels.workshopState, noPayload, () => services.workshopState());
  handle(shellChannels.changeWorkshop, parseWorkshopChange, (_event, change) => services.changeWorkshop(change));
  handle(shellChannels.newPairingCode, noPayload, () => services.newPairingCode());
  handle(shellChannels.revokeDevice, parseDeviceId, (_event, { id }) => services.revokeDevice(id));
  handle(shellChannels.dataFolder, noPayload, () => services.dataFolder());
  handle(shellChannels.openDataFolder, noPayload, () => services.openDataFolder());
  handle(shellChannels.notify, parseDesktopNotice, (event, notice) => services.notify(windowOf(event), notice));

  return () => {
    for (const channel of registered) ipcMain.removeHandler(channel);
  };
}
