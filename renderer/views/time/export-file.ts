/**
 * A time report file from the API, and saving it where the planner wants it. Over the bridge
 * a CSV arrives as text and an XLSX or PDF as base64 (shared/bridge-body.ts); the file's name
 * is in its Content-Disposition header.
 *
 * Saving: the desktop app's own save dialog when the preload offers one (`window.planner.
 * saveFile`, which also checks the extension), otherwise a download, as any browser saves.
 */
import { isBinaryBody } from '../../../shared/bridge-body.js';
import { base64FromBytes, bytesFromBase64 } from '../../components/base64.js';
import type { BridgeResponse, ExportFormat } from '../../../shared/ipc.js';

export interface ExportFile {
  name: string;
  contentType: string;
  /** The content, base64-encoded. */
  data: string;
}

export const formatTypes: Readonly<Record<ExportFormat, string>> = {
  csv: 'text/csv',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
  txt: 'text/plain',
};

/** `filename="x.csv"` or RFC 5987 `filename*=UTF-8''x.csv`; only the base name is kept. */
export function fileNameFrom(disposition: string | undefined): string | null {
  if (!disposition) return null;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition);
  let name: string | null = null;
  if (extended) {
    try {
      name = decodeURIComponent(extended[1]!.trim());
    } catch {
      name = null;
    }
  }
  name ??= /filename\s*=\s*"([^"]*)"/.exec(disposition)?.[1] ?? /filename\s*=\s*([^;\s]+)/.exec(disposition)?.[1] ?? null;
  const base = name?.split(/[\\/]/).pop()?.trim();
  return base ? base : null;
}

export function exportFileFrom(response: BridgeResponse, format: ExportFormat, fallbackName: string): ExportFile {
  const name = fileNameFrom(response.headers['content-disposition']) ?? fallbackName;
  const { body } = response;
  if (isBinaryBody(body)) return { name, contentType: body.contentType || formatTypes[format], data: body.data };
  if (typeof body === 'string') return { name, contentType: formatTypes[format], data: base64FromBytes(new TextEncoder().encode(body)) };
  throw new Error('The export arrived in a form the app cannot save.');
}

export type SaveOutcome =
  | { kind: 'saved'; fileName: string }
  | { kind: 'downloaded'; fileName: string }
  | { kind: 'canceled' }
  | { kind: 'failed'; message: string };

export async function saveExportFile(file: ExportFile, format: ExportFormat): Promise<SaveOutcome> {
  const bridge = window.planner;
  if (bridge && typeof bridge.saveFile === 'function') {
    const result = await bridge.saveFile({ format, suggestedName: file.name, data: file.data });
    if (result.status === 'saved') return { kind: 'saved', fileName: result.fileName };
    if (result.status === 'canceled') return { kind: 'canceled' };
    return { kind: 'failed', message: result.message };
  }
  download(file);
  return { kind: 'downloaded', fileName: file.name };
}

function download(file: ExportFile): void {
  const url = URL.createObjectURL(new Blob([bytesFromBase64(file.data)], { type: file.contentType }));
  const link = document.createElement('a');
  link.href = url;
  link.download = file.name;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file once the click is handled; later is safe for every engine.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
