/**
 * The sample workshop (docs/API.md "Sample workshop"): a small metal workshop a new planner can
 * try the app on. Everything it holds is declared here, by name; sample-workshop.ts writes it
 * through the resource modules, so it obeys every rule a planner's own data does.
 *
 * Dates are days from the day it is loaded, so the sample always shows this week's plan.
 */

/** Every sample record's `external_ref` starts with this, which is how it is found and removed. */
export const sampleRefPrefix = 'sample:';

export interface SampleActivity {
  key: string;
  description: string;
  code: string;
  resource_type: 'machine' | 'cell' | 'employee';
  /** Minutes. */
  default_duration: number;
  hourly_rate: number;
}

export interface SampleStage {
  name: string;
  activity: string;
  /** Workdays kept after this stage (paint drying). */
  delay_day?: number;
}

export interface SampleResource {
  key: string;
  name: string;
  type: 'machine' | 'cell' | 'employee';
  /** Hours per weekday, Monday = "1". */
  workdays: Record<'1' | '2' | '3' | '4' | '5' | '6' | '7', number | null>;
  /** Stages it works on, by stage name. */
  stages: string[];
}

export interface SampleOrderRow {
  /** The activity's key. */
  activity: string;
  description: string;
  quantity: number;
  unit: 'minutes' | 'hours' | 'days';
}

export interface SampleOrder {
  key: string;
  code: string;
  description: string;
  /** Days from the load day. */
  promisedInDays: number;
  rows: SampleOrderRow[];
  /** Planned onto the board (starting this many days from the load day); absent: waits in the backlog. */
  planInDays?: number;
}

const fullTime = { '1': 8, '2': 8, '3': 8, '4': 8, '5': 8, '6': null, '7': null };
const fourDays = { '1': 8, '2': 8, '3': 8, '4': 8, '5': null, '6': null, '7': null };

export const sampleActivities: readonly SampleActivity[] = [
  { key: 'sawing', description: 'Sawing', code: 'SAW', resource_type: 'machine', default_duration: 30, hourly_rate: 45 },
  { key: 'welding', description: 'Welding', code: 'WLD', resource_type: 'employee', default_duration: 60, hourly_rate: 62.5 },
  { key: 'painting', description: 'Painting', code: 'PNT', resource_type: 'employee', default_duration: 45, hourly_rate: 50 },
  { key: 'assembly', description: 'Assembly', code: 'ASM', resource_type: 'employee', default_duration: 60, hourly_rate: 55 },
];

export const sampleBoard = {
  name: 'Sample workshop',
  stages: [
    { name: 'Sawing', activity: 'sawing' },
    { name: 'Welding', activity: 'welding' },
    { name: 'Painting', activity: 'painting', delay_day: 1 },
    { name: 'Assembly', activity: 'assembly' },
  ] satisfies SampleStage[],
};

export const sampleResources: readonly SampleResource[] = [
  { key: 'saw', name: 'Band saw', type: 'machine', workdays: fullTime, stages: ['Sawing'] },
  { key: 'anna', name: 'Anna de Vries', type: 'employee', workdays: fullTime, stages: ['Welding'] },
  { key: 'bram', name: 'Bram Jansen', type: 'employee', workdays: fourDays, stages: ['Welding', 'Assembly'] },
  { key: 'chantal', name: 'Chantal Bakker', type: 'employee', workdays: fullTime, stages: ['Painting'] },
  { key: 'daan', name: 'Daan Visser', type: 'employee', workdays: fullTime, stages: ['Assembly'] },
];

/** One absence: a week of vacation, starting two weeks from the load day. */
export const sampleAbsence = { resource: 'chantal', type: 'vacation', description: 'Summer holiday', fromDay: 14, toDay: 18 } as const;

/** An order row as [activity, description, quantity, unit]: the orders below are a table of them. */
type RowLine = [activity: string, description: string, quantity: number, unit: SampleOrderRow['unit']];

function order(head: Omit<SampleOrder, 'rows'>, rows: RowLine[]): SampleOrder {
  return { ...head, rows: rows.map(([activity, description, quantity, unit]) => ({ activity, description, quantity, unit })) };
}

export const sampleOrders: readonly SampleOrder[] = [
  order({ key: 'gate', code: 'SO-1001', description: 'Garden gate, galvanised', promisedInDays: 10, planInDays: 0 }, [
    ['sawing', 'Cut frame tubes', 2, 'hours'],
    ['welding', 'Weld frame', 6, 'hours'],
    ['painting', 'Powder coat', 3, 'hours'],
    ['assembly', 'Hinges and lock', 90, 'minutes'],
  ]),
  order({ key: 'stairs', code: 'SO-1002', description: 'Steel staircase, 14 steps', promisedInDays: 15, planInDays: 1 }, [
    ['sawing', 'Cut stringers and treads', 4, 'hours'],
    ['welding', 'Weld treads', 12, 'hours'],
    ['painting', 'Prime and paint', 5, 'hours'],
    ['assembly', 'Handrail', 3, 'hours'],
  ]),
  order({ key: 'racks', code: 'SO-1003', description: 'Bicycle racks (10)', promisedInDays: 12, planInDays: 2 }, [
    ['sawing', 'Cut bars', 3, 'hours'],
    ['welding', 'Weld racks', 8, 'hours'],
    ['painting', 'Paint', 4, 'hours'],
  ]),
  order({ key: 'balcony', code: 'SO-1004', description: 'Balcony railing', promisedInDays: 25 }, [
    ['sawing', 'Cut posts and rails', 3, 'hours'],
    ['welding', 'Weld sections', 10, 'hours'],
    ['painting', 'Powder coat', 4, 'hours'],
    ['assembly', 'Glass panels', 5, 'hours'],
  ]),
  order({ key: 'table', code: 'SO-1005', description: 'Workbench frame', promisedInDays: 30 }, [
    ['sawing', 'Cut legs', 1, 'hours'],
    ['welding', 'Weld frame', 4, 'hours'],
    ['assembly', 'Mount top', 2, 'hours'],
  ]),
];

/** Time already worked on the first planned order, yesterday: activity and hours from 08:00. */
export const sampleTimeEntries = [
  { order: 'gate', activity: 'sawing', startHour: 8, hours: 2, note: 'Frame tubes cut' },
  { order: 'gate', activity: 'welding', startHour: 10, hours: 3.5, note: 'Frame half welded' },
] as const;
