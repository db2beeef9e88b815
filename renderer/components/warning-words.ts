/**
 * A collection's warnings in the planner's language, with dates as the rest of the screen shows
 * them ("Wed 2 Dec", not 2026-12-02). The API writes each warning as an English sentence of a
 * known form (electron/api/planning/collection-state.ts; docs/API.md "Planning"); one of another
 * form is shown as the API wrote it.
 */
import type { Translate } from '../i18n/index.js';
import { formatDay } from './dates-format.js';

const day = '(\\d{4}-\\d{2}-\\d{2})';
const stageEarly = new RegExp(`^Stage (.+) starts on ${day}, before stage (.+) is done \\(earliest ${day}\\)$`);
const notAllowed = /^Activity (.+) is not allowed in any stage of the board, so it was not planned$/;
const afterDue = new RegExp(`^Planned to end on ${day}, after the due date ${day}$`);

export function warningText(warning: unknown, t: Translate): string {
  if (typeof warning !== 'string') return JSON.stringify(warning);
  const date = (value: string) => formatDay(value, t.locale);
  let m = stageEarly.exec(warning);
  if (m) return t('warning.stageEarly', { stage: m[1]!, start: date(m[2]!), previous: m[3]!, earliest: date(m[4]!) });
  m = notAllowed.exec(warning);
  if (m) return t('warning.notAllowed', { activity: m[1]! });
  m = afterDue.exec(warning);
  if (m) return t('warning.afterDue', { end: date(m[1]!), due: date(m[2]!) });
  return warning;
}
