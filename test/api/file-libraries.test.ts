/**
 * exceljs and pdfkit load when a file is first written, not when the API starts
 * (electron/api/file-libraries.ts): a fresh Node process builds the API on a real data folder
 * and says which of the two it has loaded, before and after it asks for them.
 */
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/api.js';

const root = resolve(import.meta.dirname, '..', '..');
const folder = tempDir('planner-libraries-');
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const source = (file: string) => JSON.stringify(pathToFileURL(join(root, file)).href);
const script = `
import { createRequire } from 'node:module';
const { buildApi } = await import(${source('electron/api/app.ts')});
const { DataDir } = await import(${source('electron/store/data-dir.ts')});
const { excelJs, pdfDocument } = await import(${source('electron/api/file-libraries.ts')});
const loaded = () => {
  const files = Object.keys(createRequire(import.meta.url).cache);
  return ['exceljs', 'pdfkit'].filter((name) => files.some((file) => file.includes('/node_modules/' + name + '/')));
};
const dataDir = DataDir.open(process.argv[1]);
const app = await buildApi({ dataDir });
await app.ready();
const atStart = loaded();
const workbook = new (excelJs().Workbook)();
const document = new (pdfDocument())({ autoFirstPage: false });
console.log(JSON.stringify({ atStart, afterUse: loaded(), made: [typeof workbook.addWorksheet, typeof document.addPage] }));
await app.close();
dataDir.close();
`;

describe('the file libraries', () => {
  it('are not loaded when the API starts, and load when first asked for', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, folder], {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status, run.stderr).toBe(0);
    const lastLine = run.stdout.trim().split('\n').at(-1)!;
    expect(JSON.parse(lastLine)).toEqual({ atStart: [], afterUse: ['exceljs', 'pdfkit'], made: ['function', 'function'] });
  });
});
