/**
 * The capacity strip's figures: per stage and day, the minutes available and planned, as the
 * board's capacity endpoint answers them (`GET /v1/board/{id}/capacity/stage`, time_frame
 * day), looked up by stage and date, and how each day reads.
 */

export interface CapacityResponse {
  capacity_method?: string;
  data: { date: string; stage: { id: string; time_available: number; time_planned: number }[] }[];
}

export interface DayCapacity {
  available: number;
  planned: number;
}

export type CapacityIndex = ReadonlyMap<string, DayCapacity>;

const keyOf = (stageId: string, date: string) => `${stageId}|${date}`;

/** One lookup over several answers (one per block of days loaded). */
export function indexCapacity(responses: readonly (CapacityResponse | undefined)[]): CapacityIndex {
  const index = new Map<string, DayCapacity>();
  for (const response of responses) {
    for (const day of response?.data ?? []) {
      for (const stage of day.stage) index.set(keyOf(stage.id, day.date), { available: stage.time_available, planned: stage.time_planned });
    }
  }
  return index;
}

export function capacityOn(index: CapacityIndex, stageId: string, date: string): DayCapacity | undefined {
  return index.get(keyOf(stageId, date));
}

export type CapacityLevel = 'none' | 'free' | 'full' | 'over';

/** Over when more is planned than available (also when planned on a day with nothing available). */
export function capacityLevel({ available, planned }: DayCapacity): CapacityLevel {
  if (available <= 0 && planned <= 0) return 'none';
  if (planned > available) return 'over';
  return planned >= available * 0.9 ? 'full' : 'free';
}

/** Planned as a share of available, 0 … 1 (1 when over). */
export function capacityShare({ available, planned }: DayCapacity): number {
  if (available <= 0) return planned > 0 ? 1 : 0;
  return Math.min(1, planned / available);
}

/** Minutes as hours a planner reads, in the locale's words: 90 → "1.5h" (nl: "1,5 u"), 480 → "8h". */
export function hours(minutes: number, locale: string): string {
  let format = hourFormats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale, { style: 'unit', unit: 'hour', unitDisplay: 'narrow', maximumFractionDigits: 1 });
    hourFormats.set(locale, format);
  }
  return format.format(Math.round((minutes / 60) * 10) / 10);
}

const hourFormats = new Map<string, Intl.NumberFormat>();

/** One ISO week of a stage in the strip: its days summed, and the days in it over capacity. */
export interface WeekCapacity extends DayCapacity {
  /** Day number (on the axis) of its Monday. */
  first: number;
  /** Dates of its days with more planned than available. */
  overDays: string[];
}

/**
 * The weeks (Monday to Sunday) that meet days `first` … `last` of an axis whose day 0 is a
 * Monday, each summed over all seven of its days, so a week reads the same wherever the view
 * cuts it. Weeks with nothing available and nothing planned are left out.
 */
export function weekCapacities(
  index: CapacityIndex,
  stageId: string,
  first: number,
  last: number,
  dateAt: (day: number) => string,
): WeekCapacity[] {
  const weeks: WeekCapacity[] = [];
  for (let monday = Math.floor(first / 7) * 7; monday <= last; monday += 7) {
    const week: WeekCapacity = { first: monday, available: 0, planned: 0, overDays: [] };
    for (let day = monday; day < monday + 7; day++) {
      const figures = capacityOn(index, stageId, dateAt(day));
      if (!figures) continue;
      week.available += figures.available;
      week.planned += figures.planned;
      if (capacityLevel(figures) === 'over') week.overDays.push(dateAt(day));
    }
    if (capacityLevel(week) !== 'none') weeks.push(week);
  }
  return weeks;
}

/** How a week reads: over when the week or any of its days is over. */
export function weekLevel(week: WeekCapacity): CapacityLevel {
  return week.overDays.length > 0 ? 'over' : capacityLevel(week);
}

/** "38 / 40": planned and available hours for the strip, whole hours when `whole`, else to a tenth. */
export function hourFigures(week: DayCapacity, locale: string, whole: boolean): { planned: string; available: string } {
  const key = `${locale}|${whole}`;
  let format = figureFormats.get(key);
  if (!format) figureFormats.set(key, (format = new Intl.NumberFormat(locale, { maximumFractionDigits: whole ? 0 : 1 })));
  return { planned: format.format(week.planned / 60), available: format.format(week.available / 60) };
}

const figureFormats = new Map<string, Intl.NumberFormat>();
