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
