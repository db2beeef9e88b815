/**
 * A plan check finding in the planner's words (docs/API.md "Sync", "Plan check"): what is wrong
 * with the merged plan, from the finding's kind and figures, and which change on which computer
 * made it. Pure (test/renderer/plan-check-words.test.ts).
 */
import { formatDay } from '../../components/dates-format.js';
import type { Translate } from '../../i18n/index.js';
import type { ShownPlanFinding } from './plan-check-api.js';
import { changedBy, changedWhen, fieldLabel, resourceWord } from './overruled-words.js';

const day = (value: unknown, t: Translate) => (typeof value === 'string' ? formatDay(value, t.locale) : '');
const hours = (minutes: unknown, t: Translate) =>
  `${new Intl.NumberFormat(t.locale, { maximumFractionDigits: 1 }).format((typeof minutes === 'number' ? minutes : 0) / 60)} h`;
const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** What the merge made wrong, in one sentence. */
export function findingText(finding: Pick<ShownPlanFinding, 'kind' | 'record' | 'date' | 'details'>, t: Translate): string {
  const { details, record } = finding;
  switch (finding.kind) {
    case 'over_capacity':
      return t(record.resource === 'stage' ? 'planCheck.kind.over_capacity.stage' : 'planCheck.kind.over_capacity.resource', {
        name: record.name,
        day: day(finding.date, t),
        planned: hours(details.planned_minutes, t),
        available: hours(details.available_minutes, t),
      });
    case 'double_booking': {
      const days =
        details.start === details.end
          ? t('planCheck.oneDay', { day: day(details.start, t) })
          : t('planCheck.days', { start: day(details.start, t), end: day(details.end, t) });
      return t('planCheck.kind.double_booking', { name: record.name, card: text(details.card), other: text(details.other_card), days });
    }
    case 'broken_dependency':
      return t('planCheck.kind.broken_dependency', {
        name: record.name,
        stage: text(details.stage),
        previous: text(details.previous_stage),
        start: day(details.start, t),
        earliest: day(details.earliest, t),
      });
    case 'late_collection':
      return t(details.promised === 1 ? 'planCheck.kind.late_collection.promised' : 'planCheck.kind.late_collection.due', {
        name: record.name,
        end: day(details.end, t),
        due: day(details.due_date, t),
      });
  }
}

/** One change that made it: which record, what of it, on which computer and when. */
export function changeText(change: ShownPlanFinding['changes'][number], t: Translate): string {
  const who = changedBy(change, t);
  const when = changedWhen(change, t);
  const resource = resourceWord(change.resource, t);
  const name = change.record_name ? `“${change.record_name}”` : '';
  if (change.created || change.fields.length === 0) return t('planCheck.created', { resource, name, who, when });
  const fields = change.fields.map((field) => fieldLabel(change.resource, field, t)).join(', ');
  return t('planCheck.changed', { fields, resource, name, who, when });
}
