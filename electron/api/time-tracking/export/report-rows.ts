/**
 * The order in which every file format prints a report: for each group its heading, then its
 * lines or its subgroups, then its subtotal; a grand total at the end. CSV, XLSX and PDF all
 * walk this one sequence, so they cannot disagree about what belongs where.
 *
 * A report without groups (`group_by` empty) prints its lines in their order, then the grand
 * total. A group that has both lines and subgroups prints its lines first. After the grand
 * total come its billable and its non-billable part (minutes and amount).
 */
import { filtersText } from './report-caption.js';
import { formatAmount, type ReportGroup, type ReportLine, type ReportMoney, type TimeReport } from '../../../../shared/time-report.js';

export type ReportRow =
  /** A group begins; `path` is its ancestors, outermost first (empty for a top-level group). */
  | { kind: 'heading'; group: ReportGroup; depth: number; path: readonly ReportGroup[] }
  | { kind: 'line'; line: ReportLine; depth: number }
  /** A group ends. */
  | { kind: 'subtotal'; group: ReportGroup; depth: number; path: readonly ReportGroup[] }
  | { kind: 'grand-total'; minutes: number; amount: number }
  /** The grand total's billable or non-billable part. */
  | { kind: 'billable-total'; billable: boolean; minutes: number; amount: number };

export function* reportRows(report: TimeReport): Generator<ReportRow, void, undefined> {
  const lineAt = (index: number, group?: ReportGroup): ReportLine => {
    const line = report.lines[index];
    if (!line) throw new RangeError(`report group ${JSON.stringify(group?.label)} points at line ${index}, which does not exist`);
    return line;
  };

  if (report.groups.length === 0) {
    for (let i = 0; i < report.lines.length; i++) yield { kind: 'line', line: lineAt(i), depth: 0 };
  } else {
    // Depth first with a stack of its own rather than nested generators: through `yield*`,
    // every line would pass up through each level of nesting, 200,000 lines times the levels.
    const stack: { groups: readonly ReportGroup[]; next: number }[] = [{ groups: report.groups, next: 0 }];
    const path: ReportGroup[] = [];
    while (stack.length > 0) {
      const level = stack[stack.length - 1]!;
      if (level.next >= level.groups.length) {
        // The groups of this level are done: their parent (if any) ends.
        stack.pop();
        const parent = path.pop();
        if (parent) yield { kind: 'subtotal', group: parent, depth: path.length, path: [...path] };
        continue;
      }
      const group = level.groups[level.next++]!;
      const depth = path.length;
      yield { kind: 'heading', group, depth, path: [...path] };
      for (const index of group.lines ?? []) yield { kind: 'line', line: lineAt(index, group), depth: depth + 1 };
      if (group.groups?.length) {
        path.push(group);
        stack.push({ groups: group.groups, next: 0 });
      } else {
        yield { kind: 'subtotal', group, depth, path: [...path] };
      }
    }
  }
  const totals: ReportMoney = report.totals;
  yield { kind: 'grand-total', minutes: report.total_minutes, amount: totals.amount };
  yield { kind: 'billable-total', billable: true, minutes: totals.billable_minutes, amount: totals.billable_amount };
  yield { kind: 'billable-total', billable: false, minutes: totals.non_billable_minutes, amount: totals.non_billable_amount };
}

/** How many heading levels a group opens before its first line: 1 for a group of lines. */
export function headingChain(group: ReportGroup): number {
  const first = group.lines?.length ? undefined : group.groups?.[0];
  return first ? 1 + headingChain(first) : 1;
}

/** The label of a subtotal row. */
export function subtotalLabel(group: ReportGroup): string {
  return `Total ${group.label}`;
}

export const grandTotalLabel = 'Grand total';

/** The label of the grand total's billable or non-billable part. */
export function billableLabel(billable: boolean): string {
  return billable ? 'Billable' : 'Non-billable';
}

/** A line's yes/no columns (Billable, Overlap) as the files write them. */
export const yesNo = (value: boolean): string => (value ? 'yes' : 'no');

/**
 * The columns of the flat table that CSV and XLSX write, one per field of a line. `Rate` and
 * `Amount` are in the report's currency; `Overlap` says the entry overlaps another of its user.
 */
export const tableColumns = [
  'Date',
  'Week',
  'User',
  'Board',
  'Collection',
  'Card',
  'Activity',
  'Status',
  'Start',
  'End',
  'Duration',
  'Minutes',
  'Billable',
  'Rate',
  'Amount',
  'Overlap',
  'Note',
] as const;

/**
 * The columns the CSV adds after `tableColumns` (docs/API.md "Surcharge rules"): a line's
 * payroll hour code, percentage and minutes, one segment per record. A line's record holds its
 * first segment; each further segment follows as a record of its own with the line's labels,
 * its own date and week, and Duration, Minutes and Amount empty, so summing Minutes or Amount
 * over the file still gives the lines' totals, and summing Segment minutes by Hour code and
 * Percentage gives the hours for payroll.
 */
export const segmentColumns = ['Hour code', 'Percentage', 'Segment minutes'] as const;

/** What a report file says about itself, in the order the files print it. */
export function captionFacts(report: TimeReport, period: string): [label: string, value: string][] {
  return [
    ['Period', `${period} (${report.period.timezone})`],
    ['Filters', filtersText(report)],
    ['Exported by', report.exported_by],
    ['Currency', report.currency],
  ];
}

export { formatAmount };
