/**
 * The error vocabulary of the Planning API. Every error response has the body
 * `{reference, errors: [{code, message, description, field?}]}` (docs/API.md "Errors");
 * `reference` lets a user quote one failure to support without us logging request bodies.
 *
 * Codes are stable integers so integrations can switch on them. 10005 is the public
 * API's own code for "Memory exhausted"; the others are ours, grouped by status.
 */

export interface ApiErrorItem {
  code: number;
  message: string;
  description: string;
  /** The offending input field, for 422 validation errors. */
  field?: string;
  /** Which rule of the field's declaration the value broke (docs/API.md "Errors"), for a client's own words. */
  rule?: FieldRule;
  /** The bound of a `minimum`, `maximum` or `maxLength` rule. */
  limit?: number;
  /** The local day a rule is about (YYYY-MM-DD): the day a time entry would fill past 24 hours. */
  date?: string;
  /** Minutes the value would make: what that day would hold. */
  minutes?: number;
  /** A finite plan that fits nowhere before the end asked for: the earliest end that fits (docs/API.md "Finite-capacity planning"). */
  earliest_end?: string;
}

/**
 * The rules a field's value can break: `required` (absent, null or empty), `type` (not a value
 * of the field's type: a number, a date…), `minimum`/`maximum` (a number out of bounds),
 * `maxLength` (a text too long), `enum` (not one of the choices), `pattern` (not of the form),
 * `unique` (another record already has it); `codeOrDescription` (an order with neither),
 * `noWork`/`tooMuchWork` (an order row that plans no work, or more than `limit` minutes);
 * `notBeforeStart` (an end date before its start date); `reference` (names no such record).
 */
export const fieldRules = [
  'required',
  'type',
  'minimum',
  'maximum',
  'maxLength',
  'enum',
  'pattern',
  'unique',
  // Rules of orders that plan real work (docs/API.md "Order row units", "Empty orders").
  'codeOrDescription',
  'noWork',
  'tooMuchWork',
  // Rules of time entries (docs/API.md "Time tracking"): the end after the start, at most 24
  // hours an entry, at most 24 hours a day for one user (`date`, with the `minutes` it would hold).
  'endAfterStart',
  'tooLong',
  'dayLimit',
  // A running timer of the user that this entry would stop after more than 24 hours.
  'timerRunning',
  // An end date before the start date (a resource's, an absence's, a card's): the same day is fine.
  'notBeforeStart',
  // A reference to a record that is not there (deleted, or never made): a card's stage, a label.
  'reference',
] as const;
export type FieldRule = (typeof fieldRules)[number];

export interface ApiErrorBody {
  reference: string;
  errors: ApiErrorItem[];
}

export const ErrorKind = {
  badRequest: { status: 400, code: 10400, message: 'Bad Request' },
  notLoggedIn: { status: 401, code: 10401, message: 'Not Logged In' },
  forbidden: { status: 403, code: 10403, message: 'Forbidden' },
  notFound: { status: 404, code: 10404, message: 'Not Found' },
  methodNotAllowed: { status: 405, code: 10405, message: 'Method Not Allowed' },
  requestTimeout: { status: 408, code: 10408, message: 'Request Timeout' },
  conflict: { status: 409, code: 10409, message: 'Conflict' },
  gone: { status: 410, code: 10410, message: 'Gone' },
  payloadTooLarge: { status: 413, code: 10413, message: 'Payload Too Large' },
  uriTooLong: { status: 414, code: 10414, message: 'URI Too Long' },
  unsupportedMediaType: { status: 415, code: 10415, message: 'Unsupported Media Type' },
  unprocessable: { status: 422, code: 10422, message: 'Unprocessable Content' },
  duplicateEntry: { status: 422, code: 10423, message: 'Unprocessable entity' },
  /** A replica speaking a sync protocol older than the remote accepts (docs/API.md "Sync"). */
  upgradeRequired: { status: 426, code: 10426, message: 'Upgrade Required' },
  tooManyRequests: { status: 429, code: 10429, message: 'Too Many Requests' },
  headersTooLarge: { status: 431, code: 10431, message: 'Request Header Fields Too Large' },
  memoryExhausted: { status: 422, code: 10005, message: 'Memory exhausted' },
  internal: { status: 500, code: 10500, message: 'Internal Server Error' },
  unavailable: { status: 503, code: 10503, message: 'Service Unavailable' },
  /** The disk of the server has no room for the write (docs/API.md "Errors"). */
  insufficientStorage: { status: 507, code: 10507, message: 'Insufficient Storage' },
} as const;

export type ErrorKindName = keyof typeof ErrorKind;

/** One field-level problem found while validating input; becomes one 422 error item. */
export interface FieldProblem {
  field: string;
  description: string;
  rule?: FieldRule;
  limit?: number;
  date?: string;
  minutes?: number;
}
