/**
 * Rows pasted from a spreadsheet. Excel, LibreOffice and Google Sheets copy a block of cells
 * as tab-separated lines, quoting a cell that holds a tab, a line break or a quote ("" inside
 * the quotes). The cells are read in the grid's column order; item and activity cells name the
 * record by code or description, which this file resolves to ids before anything is sent.
 */
import { ApiRequestError, describeError } from '../../api/client.js';
import type { Translate } from '../../i18n/index.js';
import { columnName, columnOfField, orderRowColumns, valueFromText, type OrderRowField } from './order-row-columns.js';

/** Whether pasted text is a block of cells rather than one value for one cell. */
export function isCellBlock(text: string): boolean {
  return /[\t\n]/.test(text.replace(/\r?\n$/, ''));
}

/** Lines of cells. A trailing line break (spreadsheets always add one) makes no extra line. */
export function parseSpreadsheetText(text: string): string[][] {
  const lines: string[][] = [];
  let line: string[] = [];
  let cell = '';
  let i = 0;
  let atCellStart = true;
  while (i < text.length) {
    const char = text[i]!;
    if (atCellStart && char === '"') {
      // A quoted cell runs to the quote that is not doubled.
      i++;
      while (i < text.length) {
        if (text[i] === '"' && text[i + 1] === '"') {
          cell += '"';
          i += 2;
        } else if (text[i] === '"') {
          i++;
          break;
        } else {
          cell += text[i++];
        }
      }
      atCellStart = false;
      continue;
    }
    if (char === '\t') {
      line.push(cell);
      cell = '';
      atCellStart = true;
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i++;
      line.push(cell);
      lines.push(line);
      line = [];
      cell = '';
      atCellStart = true;
    } else {
      cell += char;
      atCellStart = false;
    }
    i++;
  }
  if (!atCellStart || cell !== '' || line.length > 0) {
    line.push(cell);
    lines.push(line);
  }
  return lines;
}

export interface NamedRecord {
  id: string;
  code?: string | null;
  description: string;
}

export interface PasteLookups {
  items: readonly NamedRecord[];
  activities: readonly NamedRecord[];
}

export type PastedRow = Partial<Record<OrderRowField, string | number | null>>;

export interface PasteResult {
  rows: PastedRow[];
  /** One sentence per problem, naming the pasted row; rows with problems are not sent. */
  problems: string[];
}

/** Turns the pasted lines into new order rows. Blank lines are skipped. */
export function rowsFromPaste(lines: readonly string[][], lookups: PasteLookups, t: Translate): PasteResult {
  const rows: PastedRow[] = [];
  const problems: string[] = [];
  const nonBlank = lines.filter((cells) => cells.some((cell) => cell.trim() !== ''));
  nonBlank.forEach((cells, index) => {
    const row = index + 1;
    const extra = cells.slice(orderRowColumns.length).filter((cell) => cell.trim() !== '');
    if (extra.length > 0) {
      problems.push(t('orders.paste.tooManyColumns', { row, count: cells.length, columns: orderRowColumns.length }));
      return;
    }
    const pastedRow: PastedRow = {};
    orderRowColumns.forEach((column, col) => {
      const text = (cells[col] ?? '').trim();
      if (!text) return;
      if (column.kind === 'item' || column.kind === 'activity') {
        const records = column.kind === 'item' ? lookups.items : lookups.activities;
        const matches = findByName(records, text);
        const kind = columnName(column, t);
        if (matches.length === 1) pastedRow[column.field] = matches[0]!.id;
        else if (matches.length === 0) problems.push(t('orders.paste.unknown', { row, kind, text }));
        else problems.push(t('orders.paste.ambiguous', { row, kind, text, count: matches.length }));
        return;
      }
      pastedRow[column.field] = valueFromText(column, text);
    });
    rows.push(pastedRow);
  });
  return { rows, problems };
}

/** The records a pasted name means: by code first (codes are what ERPs export), else by description. */
function findByName(records: readonly NamedRecord[], text: string): readonly NamedRecord[] {
  const wanted = text.toLowerCase();
  const byCode = records.filter((record) => record.code?.toLowerCase() === wanted);
  return byCode.length > 0 ? byCode : records.filter((record) => record.description.toLowerCase() === wanted);
}

/**
 * The API's answer to a pasted block as sentences a planner can act on: `order_rows.1.quantity`
 * becomes "Pasted row 2, quantity: must be a number". `firstPasted` is the index of the first
 * pasted row in the body that was sent.
 */
export function pasteProblems(error: unknown, t: Translate, firstPasted = 0): string[] {
  if (!(error instanceof ApiRequestError) || error.items.length === 0) return [describeError(error)];
  return error.items.map((item) => {
    const text = item.description || item.message;
    const match = item.field ? /^order_rows\.(\d+)\.?(.*)$/.exec(item.field) : null;
    if (!match) return item.field ? `${item.field}: ${text}` : text;
    const row = Number(match[1]) - firstPasted + 1;
    const field = match[2] ?? '';
    const problem = text.startsWith(`${item.field} `) ? text.slice(item.field!.length + 1) : text;
    const column = columnOfField(field);
    const name = column ? columnName(column, t) : field;
    return name ? t('orders.paste.fieldProblem', { row, field: name, problem }) : t('orders.paste.rowProblem', { row, problem });
  });
}
