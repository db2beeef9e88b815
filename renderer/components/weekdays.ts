/** The API's weekday keys ("1" = Monday, as in ISO 8601) with the label of each day's name. */
import { weekdayKeys } from '../../shared/resources/board.js';
import type { MessageKey } from '../i18n/index.js';

export type WeekdayKey = (typeof weekdayKeys)[number];

export const weekdays: readonly { key: WeekdayKey; nameKey: MessageKey }[] = weekdayKeys.map((key) => ({
  key,
  nameKey: `common.weekday.${key}`,
}));
