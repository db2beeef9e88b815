/**
 * Native file dialogs for exports and attachments: main decides the allowed extensions (a
 * page can narrow them, never widen them), checks the chosen name again after the dialog,
 * and reads or writes exactly the chosen file.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Dialog, OpenDialogOptions, SaveDialogOptions } from 'electron';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  attachmentTypes,
  maxAttachmentBytes,
  openAttachment,
  parseOpenAttachmentRequest,
  parseSaveFileRequest,
  safeFileName,
  saveExport,
  type DialogApi,
} from '../../electron/main/file-dialogs.js';
import { translator } from '../../electron/main/messages.js';
import { tempDir } from '../helpers/api.js';

vi.mock('electron', () => ({}));

const t = translator('en');
const window = { id: 7 } as never;
let folder: string;

beforeEach(() => {
  folder = tempDir();
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

/** A dialog that "chooses" the given path and records what it was asked to show. */
function dialogChoosing(path: string | undefined) {
  const saves: SaveDialogOptions[] = [];
  const opens: OpenDialogOptions[] = [];
  const dialog = {
    showSaveDialog: vi.fn(async (_window: unknown, options: SaveDialogOptions) => {
      saves.push(options);
      return path === undefined ? { canceled: true, filePath: '' } : { canceled: false, filePath: path };
    }),
    showOpenDialog: vi.fn(async (_window: unknown, options: OpenDialogOptions) => {
      opens.push(options);
      return path === undefined ? { canceled: true, filePaths: [] } : { canceled: false, filePaths: [path] };
    }),
  };
  return { dialog: dialog as unknown as DialogApi & Pick<Dialog, 'showSaveDialog'>, saves, opens };
}

const csv = (text: string) => ({ format: 'csv' as const, suggestedName: 'hours.csv', data: Buffer.from(text).toString('base64') });

describe('the save request from the page', () => {
  it('is accepted with a format, a name and base64 data', () => {
    const parsed = parseSaveFileRequest(csv('a;b\n1;2\n'));
    expect(parsed).toMatchObject({ format: 'csv', suggestedName: 'hours.csv' });
    expect((parsed as { content: Buffer }).content.toString()).toBe('a;b\n1;2\n');
  });

  it.each([
    ['not an object', 'hours.csv'],
    ['null', null],
    ['an unknown key (a path)', { ...csv('x'), path: '/etc/passwd' }],
    ['a format that is not an export', { ...csv('x'), format: 'exe' }],
    ['a format named by an inherited key', { ...csv('x'), format: 'constructor' }],
    ['an empty name', { ...csv('x'), suggestedName: '' }],
    ['a name that is not a string', { ...csv('x'), suggestedName: 5 }],
    ['data that is not base64', { ...csv('x'), data: 'not base64!' }],
    ['data that is not a string', { ...csv('x'), data: [1, 2, 3] }],
  ])('is refused with %s', (_what, payload) => {
    expect(parseSaveFileRequest(payload)).toHaveProperty('error');
  });

  it('is accepted up to 100 MiB (checked without overflowing the regexp engine)', () => {
    const data = Buffer.alloc(100 * 1024 * 1024, 7).toString('base64');
    expect(parseSaveFileRequest({ ...csv('x'), data })).not.toHaveProperty('error');
    expect(parseSaveFileRequest({ ...csv('x'), data: `${data.slice(0, -4)}AA=A` })).toHaveProperty('error');
    expect(parseSaveFileRequest({ ...csv('x'), data: data.slice(1) })).toHaveProperty('error');
  });

  it('is refused above 100 MiB', () => {
    const big = 'A'.repeat(Math.ceil((100 * 1024 * 1024) / 3) * 4 + 4);
    expect(parseSaveFileRequest({ ...csv('x'), data: big })).toHaveProperty('error');
  });
});

describe('file names suggested by the page', () => {
  it('lose folders and characters no system accepts, and end in the format', () => {
    expect(safeFileName('../../.ssh/authorized_keys', 'csv')).toBe('authorized_keys.csv');
    expect(safeFileName('C:\\Windows\\system32\\evil', 'pdf')).toBe('evil.pdf');
    expect(safeFileName('week 23: "hours"?', 'xlsx')).toBe('week 23 hours.xlsx');
    expect(safeFileName('report.csv', 'csv')).toBe('report.csv');
    expect(safeFileName('...', 'csv')).toBe('export.csv');
    expect(safeFileName('CON', 'csv')).toBe('export-CON.csv');
    expect(safeFileName('a\u0000b\u001fc', 'csv')).toBe('abc.csv');
  });
});

describe('saving an export', () => {
  it('offers the format as the only filter, with overwrite confirmation, in the downloads folder', async () => {
    const { dialog, saves } = dialogChoosing(undefined);
    await saveExport(dialog, window, parseSaveFileRequest(csv('x')) as never, '/home/p/Downloads', t);
    expect(saves[0]).toMatchObject({
      defaultPath: join('/home/p/Downloads', 'hours.csv'),
      filters: [{ name: 'CSV file', extensions: ['csv'] }],
      properties: expect.arrayContaining(['showOverwriteConfirmation']),
    });
    expect(dialog.showSaveDialog).toHaveBeenCalledWith(window, expect.anything());
  });

  it('saves a DATEV payroll file as a text file, and only as one', async () => {
    const { dialog, saves } = dialogChoosing(undefined);
    const datev = {
      format: 'txt' as const,
      suggestedName: 'datev-lodas-2026-11.txt',
      data: Buffer.from('[Allgemein]\r\n').toString('base64'),
    };
    await saveExport(dialog, window, parseSaveFileRequest(datev) as never, '/home/p/Downloads', t);
    expect(saves[0]).toMatchObject({
      defaultPath: join('/home/p/Downloads', 'datev-lodas-2026-11.txt'),
      filters: [{ name: 'Text file', extensions: ['txt'] }],
    });
  });

  it('writes the bytes to the chosen file and nothing else', async () => {
    const chosen = join(folder, 'my hours.csv');
    const { dialog } = dialogChoosing(chosen);
    const result = await saveExport(dialog, window, parseSaveFileRequest(csv('a;b\n')) as never, folder, t);
    expect(result).toEqual({ status: 'saved', fileName: 'my hours.csv' });
    expect(readFileSync(chosen, 'utf8')).toBe('a;b\n');
    expect(readdirSync(folder)).toEqual(['my hours.csv']);
  });

  it('overwrites a file the dialog confirmed', async () => {
    const chosen = join(folder, 'hours.csv');
    writeFileSync(chosen, 'old');
    const { dialog } = dialogChoosing(chosen);
    await saveExport(dialog, window, parseSaveFileRequest(csv('new')) as never, folder, t);
    expect(readFileSync(chosen, 'utf8')).toBe('new');
  });

  it('adds the extension when the name has none, but never over an existing file', async () => {
    const { dialog } = dialogChoosing(join(folder, 'hours'));
    expect(await saveExport(dialog, window, parseSaveFileRequest(csv('1')) as never, folder, t)).toEqual({
      status: 'saved',
      fileName: 'hours.csv',
    });
    expect(readFileSync(join(folder, 'hours.csv'), 'utf8')).toBe('1');
    // The dialog confirmed "hours", not "hours.csv": that file is not overwritten.
    const again = await saveExport(dialog, window, parseSaveFileRequest(csv('2')) as never, folder, t);
    expect(again).toMatchObject({ status: 'refused' });
    expect(readFileSync(join(folder, 'hours.csv'), 'utf8')).toBe('1');
  });

  it.each(['hours.exe', 'hours.csv.sh', 'hours.xlsx', '.bashrc'])(
    'refuses a chosen name with another extension (%s) and writes nothing',
    async (name) => {
      const { dialog } = dialogChoosing(join(folder, name));
      const result = await saveExport(dialog, window, parseSaveFileRequest(csv('x')) as never, folder, t);
      expect(result).toMatchObject({ status: 'refused', message: 'Choose a file name ending in .csv.' });
      expect(readdirSync(folder)).toEqual([]);
    },
  );

  it('writes nothing when the planner cancels', async () => {
    const { dialog } = dialogChoosing(undefined);
    expect(await saveExport(dialog, window, parseSaveFileRequest(csv('x')) as never, folder, t)).toEqual({ status: 'canceled' });
    expect(readdirSync(folder)).toEqual([]);
  });

  it('says why when the file cannot be written', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { dialog } = dialogChoosing(join(folder, 'no-such-folder', 'hours.csv'));
    const result = await saveExport(dialog, window, parseSaveFileRequest(csv('x')) as never, folder, t);
    expect(result).toMatchObject({ status: 'failed', message: expect.stringMatching(/ENOENT/) });
    vi.mocked(console.error).mockRestore();
  });
});

describe('the attachment request from the page', () => {
  it('allows every attachment type when it names none', () => {
    expect(parseOpenAttachmentRequest(undefined)).toEqual({ extensions: Object.keys(attachmentTypes) });
    expect(parseOpenAttachmentRequest({})).toEqual({ extensions: Object.keys(attachmentTypes) });
  });

  it('may narrow the types', () => {
    expect(parseOpenAttachmentRequest({ extensions: ['PDF', 'png', 'pdf'] })).toEqual({ extensions: ['pdf', 'png'] });
  });

  it.each([[['exe']], [['pdf', 'sh']], [['svg']], [['html']], [[]], ['pdf'], [[42]]])('may not widen them: %j is refused', (extensions) => {
    expect(parseOpenAttachmentRequest({ extensions })).toHaveProperty('error');
  });

  it('refuses unknown keys', () => {
    expect(parseOpenAttachmentRequest({ extensions: ['pdf'], defaultPath: '/etc' })).toHaveProperty('error');
  });

  it('offers no script, executable or markup type', () => {
    expect(Object.keys(attachmentTypes)).not.toEqual(expect.arrayContaining(['exe']));
    for (const risky of ['exe', 'bat', 'sh', 'js', 'html', 'svg', 'app', 'msi']) expect(attachmentTypes).not.toHaveProperty(risky);
  });
});

describe('choosing an attachment', () => {
  it('shows only the allowed types and returns the chosen file’s bytes', async () => {
    const file = join(folder, 'drawing.pdf');
    writeFileSync(file, '%PDF-1.7 test');
    const { dialog, opens } = dialogChoosing(file);
    const result = await openAttachment(dialog, window, ['pdf', 'png'], t);
    expect(opens[0]).toMatchObject({ properties: ['openFile'], filters: [{ extensions: ['pdf', 'png'] }] });
    expect(result).toEqual({
      status: 'chosen',
      fileName: 'drawing.pdf',
      contentType: 'application/pdf',
      bytes: 13,
      data: Buffer.from('%PDF-1.7 test').toString('base64'),
    });
  });

  it('refuses a file of another type even if the dialog let it through', async () => {
    const file = join(folder, 'run.sh');
    writeFileSync(file, '#!/bin/sh');
    const { dialog } = dialogChoosing(file);
    expect(await openAttachment(dialog, window, ['pdf'], t)).toMatchObject({ status: 'refused' });
  });

  it('refuses a type the page narrowed away', async () => {
    const file = join(folder, 'photo.png');
    writeFileSync(file, 'png');
    const { dialog } = dialogChoosing(file);
    expect(await openAttachment(dialog, window, ['pdf'], t)).toMatchObject({ status: 'refused' });
  });

  it('refuses a file larger than the upload limit', async () => {
    const file = join(folder, 'huge.pdf');
    writeFileSync(file, Buffer.alloc(maxAttachmentBytes + 1));
    const { dialog } = dialogChoosing(file);
    expect(await openAttachment(dialog, window, ['pdf'], t)).toMatchObject({
      status: 'refused',
      message: 'The file is larger than 25 MiB.',
    });
  });

  it('refuses a folder named like a file', async () => {
    const dir = join(folder, 'folder.pdf');
    mkdirSync(dir);
    const { dialog } = dialogChoosing(dir);
    expect(await openAttachment(dialog, window, ['pdf'], t)).toMatchObject({ status: 'refused' });
  });

  it('reads nothing when the planner cancels', async () => {
    const { dialog } = dialogChoosing(undefined);
    expect(await openAttachment(dialog, window, ['pdf'], t)).toEqual({ status: 'canceled' });
    expect(existsSync(join(folder, 'x'))).toBe(false);
  });
});
