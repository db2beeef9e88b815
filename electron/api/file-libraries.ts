/**
 * exceljs and pdfkit, loaded the first time a file is written rather than when the API starts.
 * Together they take about half a second to load, which every start of the app and of the
 * server paid for files most sessions never write (docs/decisions/lazy-file-libraries.md).
 *
 * Loaded with `require` so that the writers stay synchronous where they are (a print preview
 * measures text with pdfkit in a plain function); both packages are CommonJS.
 */
import { createRequire } from 'node:module';
import type ExcelJS from 'exceljs';
import type PDFDocument from 'pdfkit';

const load = createRequire(import.meta.url);
let excel: typeof ExcelJS | undefined;
let pdf: typeof PDFDocument | undefined;

export function excelJs(): typeof ExcelJS {
  // require answers unknown; the package's module.exports is what `import ExcelJS` typed.
  return (excel ??= load('exceljs') as typeof ExcelJS);
}

/** pdfkit's document class. */
export function pdfDocument(): typeof PDFDocument {
  // pdfkit's CommonJS module.exports is the document class that `import PDFDocument` typed.
  return (pdf ??= load('pdfkit') as typeof PDFDocument);
}
