/**
 * The two ways a call to the Planning API can fail, and how to say so to a planner.
 *
 * `ApiRequestError`: the API answered with a non-2xx status and (normally) the documented
 * error body `{reference, errors: [{code, message, description, field?}]}`.
 * `TransportError`: the answer never arrived (the host is gone, or refused the bridge call).
 */
import type { ApiErrorBody, ApiErrorItem } from '../../shared/errors.js';

export class ApiRequestError extends Error {
  override readonly name = 'ApiRequestError';

  constructor(
    readonly status: number,
    /** Null when the response did not carry the documented error body. */
    readonly body: ApiErrorBody | null,
  ) {
    super(summarize(status, body?.errors ?? []));
  }

  /** Quote this to support; the server logs the failure under it. */
  get reference(): string | undefined {
    return this.body?.reference;
  }

  get items(): ApiErrorItem[] {
    return this.body?.errors ?? [];
  }

  /**
   * Field name → what is wrong with it, for showing 422 problems next to their inputs; `word`
   * says it in the screen's words (field-labels.ts), else the API's description is shown.
   */
  fieldMessages(word?: Wording): Record<string, string> {
    const messages: Record<string, string> = {};
    for (const item of this.items) {
      if (!item.field) continue;
      const text = word?.(item) ?? itemText(item);
      messages[item.field] = messages[item.field] ? `${messages[item.field]} ${text}` : text;
    }
    return messages;
  }

  /**
   * What a form cannot show beside one of its own inputs: errors without a field, or about
   * fields the form does not have. Without this a problem with a hidden field would vanish.
   */
  messagesOutside(shownFields: readonly string[]): string[] {
    return this.items
      .filter((item) => !item.field || !shownFields.includes(item.field))
      .map((item) => (item.field ? `${item.field}: ${itemText(item)}` : itemText(item)));
  }
}

export class TransportError extends Error {
  override readonly name = 'TransportError';
}

export function isApiErrorBody(value: unknown): value is ApiErrorBody {
  if (typeof value !== 'object' || value === null) return false;
  const body = value as Partial<ApiErrorBody>;
  return typeof body.reference === 'string' && Array.isArray(body.errors);
}

/** A sentence a planner can read, whatever was thrown. */
export function describeError(error: unknown): string {
  if (error instanceof ApiRequestError) {
    // Server faults are ours, not the user's: give them the reference to quote.
    return error.status >= 500 && error.reference ? `${error.message} (reference ${error.reference})` : error.message;
  }
  if (error instanceof Error && error.message) return error.message;
  return 'Something went wrong.';
}

/** Says one error item in the screen's own words, or undefined for the API's description. */
type Wording = (item: ApiErrorItem) => string | undefined;

/** Per-field messages of a 422, or none for any other failure. */
export function fieldErrors(error: unknown, word?: Wording): Record<string, string> {
  return error instanceof ApiRequestError ? error.fieldMessages(word) : {};
}

/** Errors a form must show above its inputs: everything except what sits next to a field. */
export function formErrors(error: unknown, shownFields: readonly string[]): string[] {
  if (!error) return [];
  if (error instanceof ApiRequestError && error.items.length > 0) return error.messagesOutside(shownFields);
  return [describeError(error)];
}

/** Where a form shows the problems of a failed save: beside inputs, or above the form. */
export interface PlacedErrors {
  /** Input path (`stages.1.name`) → what is wrong with it. */
  byInput: Record<string, string>;
  /** Problems no input shows, and failures that are not about fields at all. */
  elsewhere: string[];
}

/**
 * Places each problem of a failed save beside the input that shows it: the input with the
 * same field path, or else the nearest one above it (`stages.0.activities.1.id` goes beside
 * the `stages.0.activities` checkboxes). Deep paths are API-speak, so a message beside its
 * input names only the last part ("name is required", not "stages.1.name is required"); the
 * input's own label already says which stage. Whatever no input shows lands in `elsewhere`.
 */
export function placeFieldErrors(error: unknown, inputs: readonly string[], word?: Wording): PlacedErrors {
  const placed: PlacedErrors = { byInput: {}, elsewhere: [] };
  if (!error) return placed;
  if (!(error instanceof ApiRequestError) || error.items.length === 0) {
    placed.elsewhere.push(describeError(error));
    return placed;
  }
  for (const item of error.items) {
    const worded = word?.(item);
    const text = worded ?? itemText(item);
    const input = item.field ? nearestInput(item.field, inputs) : undefined;
    if (!item.field) placed.elsewhere.push(text);
    else if (!input) placed.elsewhere.push(worded ?? `${item.field}: ${text}`);
    else if (worded) placed.byInput[input] = placed.byInput[input] ? `${placed.byInput[input]} ${worded}` : worded;
    else {
      const short = text.startsWith(`${item.field} `) ? text.slice(item.field.length - lastSegment(item.field).length) : text;
      placed.byInput[input] = placed.byInput[input] ? `${placed.byInput[input]} ${short}` : short;
    }
  }
  return placed;
}

function nearestInput(field: string, inputs: readonly string[]): string | undefined {
  for (let path = field; path; path = path.slice(0, Math.max(0, path.lastIndexOf('.')))) {
    if (inputs.includes(path)) return path;
  }
  return undefined;
}

function lastSegment(path: string): string {
  return path.slice(path.lastIndexOf('.') + 1);
}

function itemText(item: ApiErrorItem): string {
  return item.description || item.message;
}

const statusFallback: Record<number, string> = {
  400: 'The request was not understood.',
  401: 'You are not signed in.',
  403: 'You may not do that.',
  404: 'That record no longer exists.',
  409: 'Someone else changed this at the same time. Reload and try again.',
  422: 'Some fields need attention.',
};

function summarize(status: number, items: ApiErrorItem[]): string {
  if (items.length === 0) {
    return statusFallback[status] ?? (status >= 500 ? 'The planner ran into a problem.' : `Request failed (${status}).`);
  }
  if (status === 422 && items.some((item) => item.field)) {
    return items.map((item) => (item.field ? `${item.field}: ${itemText(item)}` : itemText(item))).join(' ');
  }
  return items.map(itemText).join(' ');
}
