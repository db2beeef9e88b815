/** The activity form's working copy, and the body it saves as. */
import type { WriteBody } from '../../api/resources.js';
import { numberOrDefault, numberText, optionalText, requiredText } from '../../components/form-values.js';
import type { ResourceType } from '../../components/ResourceTypeSelect.js';
import type { Translate } from '../../i18n/index.js';
import { activitySpec, type Activity } from '../../../shared/resources/activity.js';

export interface ActivityDraft {
  description: string;
  code: string;
  resource_type: ResourceType;
  /** Minutes, as typed. */
  default_duration: string;
  day_max_duration: string;
  billable: boolean;
  hourly_rate: string;
  /** The payroll package's code for its hours (docs/API.md "Surcharge rules"). */
  hour_code: string;
  /** Who may do it (docs/API.md "Skills and crews"); blank: anyone. */
  skill: string;
  /** How many people at once, as typed. */
  crew: string;
}

const fields = activitySpec.fields;

export function newActivityDraft(): ActivityDraft {
  return {
    description: '',
    code: '',
    resource_type: fields.resource_type.default,
    default_duration: String(fields.default_duration.default),
    day_max_duration: String(fields.day_max_duration.default),
    billable: fields.billable.default,
    hourly_rate: String(fields.hourly_rate.default),
    hour_code: '',
    skill: '',
    crew: String(fields.crew.default),
  };
}

export function activityDraftFrom(activity: Activity): ActivityDraft {
  return {
    description: activity.description,
    code: activity.code ?? '',
    resource_type: activity.resource_type,
    default_duration: numberText(activity.default_duration),
    day_max_duration: numberText(activity.day_max_duration),
    billable: activity.billable,
    hourly_rate: numberText(activity.hourly_rate),
    hour_code: activity.hour_code ?? '',
    skill: activity.skill ?? '',
    crew: numberText(activity.crew),
  };
}

export function activityBody(draft: ActivityDraft, isNew: boolean): WriteBody<'activity'> {
  return {
    description: requiredText(draft.description, isNew),
    code: optionalText(draft.code),
    resource_type: draft.resource_type,
    default_duration: numberOrDefault(draft.default_duration),
    day_max_duration: numberOrDefault(draft.day_max_duration),
    billable: draft.billable,
    hourly_rate: numberOrDefault(draft.hourly_rate),
    hour_code: optionalText(draft.hour_code),
    skill: optionalText(draft.skill),
    crew: numberOrDefault(draft.crew),
  };
}

/** The fields the activity form has an input for. */
export const activityFormInputs = [
  'description',
  'code',
  'resource_type',
  'default_duration',
  'day_max_duration',
  'billable',
  'hourly_rate',
  'hour_code',
  'skill',
  'crew',
] as const;

/** "90" minutes → "1 h 30 min" ("1 u 30 min" in Dutch), as planners say durations. */
export function durationText(minutes: number, t: Translate): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return t('activities.minutes', { minutes: rest });
  return rest === 0 ? t('activities.hours', { hours }) : t('activities.hoursMinutes', { hours, minutes: rest });
}
