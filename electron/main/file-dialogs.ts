/**
 * Native file dialogs for the page. The page never names a path: it asks for a dialog, the
 * planner chooses, and main reads or writes exactly the chosen file. Main decides which
 * extensions are allowed (a page can narrow the list, never widen it) and checks the chosen
 * name again after the dialog, since on some systems a typed name ignores the filter.
 */
import { constants } from 'node:fs';
import { copyFile, open, stat, writeFile } from 'node:fs/promises';
import { basename, extname, isAbsolute, join } from 'node:path';
import type { BaseWindow, Dialog, OpenDialogOptions, SaveDialogOptions } from 'electron';
import type { ExportFormat, OpenAttachmentResult, SaveFileRequest, SaveFileResult } from '../../shared/ipc.js';
import type { MessageKey, Translate } from './messages.js';

export const exportFormats: Readonly<Record<ExportFormat, MessageKey>> = {
  csv: 'filter.csv',
  xlsx: 'filter.xlsx',
  pdf: 'filter.pdf',
  txt: 'filter.txt',
};
export const maxExportBytes = 100 * 1024 * 1024;

/** What may be attached, with the content type it is uploaded as. No scripts, executables or SVG. */
export const attachmentTypes: Readonly<Record<string, string>> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  txt: 'text/plain',
  csv: 'text/csv',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  xls: 'application/vnd.ms-excel',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  doc: 'application/msword',
  odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  zip: 'application/zip',
};
/** The API's upload limit (`/attachment/upload` answers 413 above it). */
export const maxAttachmentBytes = 25 * 1024 * 1024;

export type DialogApi = Pick<Dialog, 'showSaveDialog' | 'showOpenDialog'>;

type Parsed<T> = T | { error: string };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// A plain character class, no groups: a grouped pattern overflows V8's regexp stack on the
// ~140 MB string a 100 MiB export becomes.
const base64Characters = /^[A-Za-z0-9+/]*={0,2}$/;
const isBase64 = (text: string) => text.length % 4 === 0 && base64Characters.test(text);

export function parseSaveFileRequest(payload: unknown): Parsed<SaveFileRequest & { content: Buffer }> {
  if (!isPlainObject(payload)) return { error: 'the request must be an object' };
  for (const key of Object.keys(payload)) {
    if (!['format', 'suggestedName', 'data'].includes(key)) return { error: `unknown key ${key}` };
  }
  const { format, suggestedName, data } = payload;
  if (typeof format !== 'string' || !Object.hasOwn(exportFormats, format))
    return { error: `format must be one of ${Object.keys(exportFormats).join(', ')}` };
  if (typeof suggestedName !== 'string' || suggestedName.length === 0 || suggestedName.length > 255)
    return { error: 'suggestedName must be 1-255 characters' };
  if (typeof data !== 'string' || data.length > Math.ceil(maxExportBytes / 3) * 4 || !isBase64(data)) {
    return { error: `data must be base64 of at most ${maxExportBytes / 1024 / 1024} MiB` };
  }
  return { format: format as ExportFormat, suggestedName, data, content: Buffer.from(data, 'base64') };
}

export function parseOpenAttachmentRequest(payload: unknown): Parsed<{ extensions: string[] }> {
  const all = Object.keys(attachmentTypes);
  if (payload === undefined || payload === null) return { extensions: all };
  if (!isPlainObject(payload)) return { error: 'the request must be an object' };
  for (const key of Object.keys(payload)) if (key !== 'extensions') return { error: `unknown key ${key}` };
  if (payload.extensions === undefined) return { extensions: all };
  const asked = payload.extensions;
  if (!Array.isArray(asked) || asked.length === 0 || asked.length > all.length) return { error: 'extensions must be a non-empty list' };
  const extensions: string[] = [];
  for (const extension of asked) {
    if (typeof extension !== 'string' || !all.includes(extension.toLowerCase())) {
      return { error: `extensions may only name allowed types (${all.join(', ')})` };
    }
    if (!extensions.includes(extension.toLowerCase())) extensions.push(extension.toLowerCase());
  }
  return { extensions };
}

const windowsReserved = /^(con|prn|aux|nul|com\d|lpt\d)$/i;

/** A file name (no folders, no characters any OS refuses) ending in `.extension`. */
export function safeFileName(suggested: string, extension: string, fallback = 'export'): string {
  let name = suggested.split(/[/\\]/).pop() ?? '';
  name = [...name]
    .filter((c) => c.charCodeAt(0) > 0x1f && c.charCodeAt(0) !== 0x7f && !'<>:"|?*'.includes(c))
    .join('')
    .trim();
  if (name.toLowerCase().endsWith(`.${extension}`)) name = name.slice(0, -(extension.length + 1));
  name = name.replace(/^[.\s]+|[.\s]+$/g, '').slice(0, 120);
  if (!name || windowsReserved.test(name)) name = `${fallback}${name ? `-${name}` : ''}`;
  return `${name}.${extension}`;
}

/**
 * `exclusive`: the dialog did not confirm overwriting this exact name (the extension was
 * added after it closed), so the file must not exist yet.
 */
export type SaveChoice =
  { status: 'chosen'; path: string; exclusive: boolean } | { status: 'canceled' } | { status: 'refused'; message: string };

export interface SaveDialogRequest {
  title: string;
  defaultPath: string;
  extension: string;
  filterName: string;
}

export async function chooseSavePath(
  dialog: DialogApi,
  window: BaseWindow | undefined,
  request: SaveDialogRequest,
  t: Translate,
): Promise<SaveChoice> {
  const options: SaveDialogOptions = {
    title: request.title,
    defaultPath: request.defaultPath,
    filters: [{ name: request.filterName, extensions: [request.extension] }],
    properties: ['showOverwriteConfirmation', 'createDirectory'],
  };
  const result = window ? await dialog.showSaveDialog(window, options) : await dialog.showSaveDialog(options);
  if (result.canceled || !result.filePath) return { status: 'canceled' };
  const chosen = result.filePath;
  if (!isAbsolute(chosen)) return { status: 'refused', message: t('save.wrongExtension', { extension: request.extension }) };
  const extension = extname(chosen).toLowerCase();
  if (extension === `.${request.extension}`) return { status: 'chosen', path: chosen, exclusive: false };
  if (extension === '' && !basename(chosen).startsWith('.'))
    return { status: 'chosen', path: `${chosen}.${request.extension}`, exclusive: true };
  return { status: 'refused', message: t('save.wrongExtension', { extension: request.extension }) };
}

/** Writes `content` (bytes, or the file at `from`) to the chosen path and nowhere else. */
export async function writeChosenFile(
  choice: Extract<SaveChoice, { status: 'chosen' }>,
  content: Buffer | { from: string },
  t: Translate,
): Promise<SaveFileResult> {
  try {
    if (Buffer.isBuffer(content)) await writeFile(choice.path, content, { flag: choice.exclusive ? 'wx' : 'w' });
    else await copyFile(content.from, choice.path, choice.exclusive ? constants.COPYFILE_EXCL : 0);
    return { status: 'saved', fileName: basename(choice.path) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST')
      return { status: 'refused', message: t('save.exists', { file: basename(choice.path) }) };
    console.error(`Could not write ${choice.path}:`, error);
    return { status: 'failed', message: (error as Error).message };
  }
}

export async function saveExport(
  dialog: DialogApi,
  window: BaseWindow | undefined,
  request: SaveFileRequest & { content: Buffer },
  folder: string,
  t: Translate,
): Promise<SaveFileResult> {
  const choice = await chooseSavePath(
    dialog,
    window,
    {
      title: t('save.title'),
      defaultPath: join(folder, safeFileName(request.suggestedName, request.format)),
      extension: request.format,
      filterName: t(exportFormats[request.format]),
    },
    t,
  );
  if (choice.status !== 'chosen') return choice;
  return writeChosenFile(choice, request.content, t);
}

export async function openAttachment(
  dialog: DialogApi,
  window: BaseWindow | undefined,
  extensions: string[],
  t: Translate,
): Promise<OpenAttachmentResult> {
  const options: OpenDialogOptions = {
    title: t('open.attachmentTitle'),
    properties: ['openFile'],
    filters: [{ name: t('filter.attachment'), extensions }],
  };
  const result = window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options);
  const chosen = result.filePaths[0];
  if (result.canceled || !chosen) return { status: 'canceled' };
  const extension = extname(chosen).slice(1).toLowerCase();
  if (!extensions.includes(extension)) return { status: 'refused', message: t('open.notAllowed', { extensions: extensions.join(', ') }) };
  // Opened once and checked through the handle, so the file read is the file checked; a
  // FIFO or device (which a dialog can also pick) is refused before any read can block.
  const before = await stat(chosen);
  if (!before.isFile()) return { status: 'refused', message: t('open.notAllowed', { extensions: extensions.join(', ') }) };
  const handle = await open(chosen, 'r');
  try {
    const info = await handle.stat();
    if (!info.isFile()) return { status: 'refused', message: t('open.notAllowed', { extensions: extensions.join(', ') }) };
    if (info.size > maxAttachmentBytes)
      return { status: 'refused', message: t('open.tooLarge', { limit: maxAttachmentBytes / 1024 / 1024 }) };
    const content = await handle.readFile();
    if (content.length > maxAttachmentBytes)
      return { status: 'refused', message: t('open.tooLarge', { limit: maxAttachmentBytes / 1024 / 1024 }) };
    return {
      status: 'chosen',
      fileName: basename(chosen),
      contentType: attachmentTypes[extension] ?? 'application/octet-stream',
      bytes: content.length,
      data: content.toString('base64'),
    };
  } finally {
    await handle.close();
  }
}

export async function chooseOpenPath(
  dialog: DialogApi,
  window: BaseWindow | undefined,
  request: { title: string; extension: string; filterName: string },
): Promise<string | undefined> {
  const options: OpenDialogOptions = {
    title: request.title,
    properties: ['openFile'],
    filters: [{ name: request.filterName, extensions: [request.extension] }],
  };
  const result = window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options);
  return result.canceled ? undefined : result.filePaths[0];
}
