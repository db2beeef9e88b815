/**
 * Files in and out of the panel. In: the Electron window asks main for a file through its
 * open dialog (which allows only safe types, see electron/main/file-dialogs.ts); a browser
 * reads the file the planner picked in a file input. Either way the content becomes base64 for
 * the bridge. Out: a downloaded attachment becomes a Blob, saved through an object URL.
 */
import { base64FromBytes } from '../../components/base64.js';
import type { ChosenFile } from './card-api.js';

export type ShellChoice = { kind: 'chosen'; file: ChosenFile } | { kind: 'canceled' } | { kind: 'refused'; message: string };

/** Whether this window has the desktop shell's own file dialog. */
export function hasShellFileDialog(): boolean {
  return typeof window.planner?.openAttachment === 'function';
}

export async function chooseFileInShell(): Promise<ShellChoice> {
  const result = await window.planner!.openAttachment();
  if (result.status === 'chosen')
    return { kind: 'chosen', file: { filename: result.fileName, contentType: result.contentType, data: result.data } };
  if (result.status === 'canceled') return { kind: 'canceled' };
  return { kind: 'refused', message: result.message };
}

/** A file from a file input. Browsers give '' as the type of files they do not know. */
export async function readChosenFile(file: File): Promise<ChosenFile> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  return { filename: file.name, contentType: contentTypeOf(file.type), data: base64FromBytes(bytes) };
}

/** The bridge takes `type/subtype` only; parameters (`; charset=…`) and unknown types become octet-stream. */
export function contentTypeOf(type: string): string {
  const bare = type.split(';')[0]!.trim().toLowerCase();
  return /^[\w.+-]+\/[\w.+-]+$/.test(bare) ? bare : 'application/octet-stream';
}

/** Hands a Blob to the browser's (or Electron's) download, under `filename`. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked later: the download reads the URL after the click returns.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** 0 → "0 B", 1536 → "1.5 KB", 3_400_000 → "3.2 MB" (in `nl-NL` "1,5 KB"); pass `t.locale`. */
export function formatBytes(bytes: number | null | undefined, locale: string): string {
  if (bytes === null || bytes === undefined || bytes < 0) return '';
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = value < 10 ? 1 : 0;
  const number = new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false }).format(
    value,
  );
  return `${number} ${units[unit]}`;
}
