/** The API's weekday keys ("1" = Monday, as in ISO 8601) with the names a planner reads. */
import { weekdayKeys } from '../../shared/resources/board.js';

export type WeekdayKey = (typeof weekdayKeys)[number];

const names = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

export const weekdays: readonly { key: WeekdayKey; name: string }[] = weekdayKeys.map((key, index) => ({
  key,
  name: names[index]!,
}));
