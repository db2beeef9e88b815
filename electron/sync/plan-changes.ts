/**
 * What a pull changed, for the plan check after it (docs/API.md "Sync", "Plan check"). Field
 * by field last-writer-wins is right for each field, yet two planners offline can each fill
 * the same day: the merged plan is overloaded and nobody made it. So the check looks at the
 * plan on the boards a pull touches before the pull is merged and after, and keeps what is new.
 *
 * The check itself reads the plan through the API's rules (capacity, dependencies, due dates),
 * which the sync layer does not import: the client is handed a `PlanCheck` (host/replica-sync.ts).
 */
import { parseHlc } from '../../shared/hlc.js';
import { own } from '../../shared/fields.js';
import type { Clocks } from '../store/sync-book.js';
import type { TableDef } from '../store/table-def.js';

/** A pulled record as the merge reads it (merge.ts PulledRecord). */
export interface PulledRecord {
  resource: string;
  id: string;
  record: Record<string, unknown> | null;
  clocks: Clocks;
}

/** A pulled record the merge wrote here: what it was before, which fields changed, and who wrote them. */
export interface PulledChange {
  resource: string;
  id: string;
  /** The record as this replica had it before the merge; undefined when it was new here. */
  before: Record<string, unknown> | undefined;
  /** The pulled record (with `deleted_at`). */
  after: Record<string, unknown>;
  /** The fields a planner writes that this computer changed and the merge took here; none for a record new here (`created`). */
  fields: string[];
  created: boolean;
  /** The node id in the newest clock of those fields: the computer that wrote the change. */
  changed_by: string;
  /** When it was written there, by that computer's clock. */
  changed_at: string;
}

/** The plan check of one sync run: `before` each pulled batch is merged, `after` the pull. */
export interface PlanCheckRun {
  before(entries: readonly PulledRecord[]): Promise<void>;
  /** The findings kept; never throws for a finding it could not work out (the run goes on). */
  after(changes: readonly PulledChange[]): Promise<number>;
}

export type PlanCheck = () => PlanCheckRun;

/** Whether a field kept its value: a write sends some fields unchanged, with new clocks. */
function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/**
 * The changes the merge made of a pulled record, one per computer that wrote them: a pulled
 * record carries each field's own clock, and a planner's edit and the remote's summary of it
 * (a collection's dates and warnings) are two changes by two computers. Only fields a planner
 * writes count for an edit (server fields such as `updated_at` and a collection's computed dates
 * follow their records, as for overruled edits); a record new here is one change, by whoever
 * wrote its newest field.
 */
export function pulledChanges(
  table: TableDef,
  entry: PulledRecord,
  before: Record<string, unknown> | undefined,
  fields: readonly string[],
  clocks: Clocks,
): PulledChange[] {
  const record = entry.record;
  if (!record) return [];
  const clockOf = (field: string) => clocks[field] ?? entry.clocks[field];
  const change = (hlc: string | undefined, changed: string[]): PulledChange[] => {
    const parts = hlc ? parseHlc(hlc) : undefined;
    if (!parts) return [];
    const at = new Date(parts.millis).toISOString();
    return [
      {
        resource: entry.resource,
        id: entry.id,
        before,
        after: record,
        fields: changed,
        created: !before,
        changed_by: parts.node,
        changed_at: at,
      },
    ];
  };
  if (!before)
    return change(
      fields.map(clockOf).reduce<string | undefined>((m, c) => (c && (!m || c > m) ? c : m), undefined),
      [],
    );
  const byWriter = new Map<string, { hlc: string; fields: string[] }>();
  for (const field of fields) {
    const spec = own(table.fields, field);
    const hlc = clockOf(field);
    const node = hlc ? parseHlc(hlc)?.node : undefined;
    if (!hlc || !node || (field !== 'deleted_at' && (!spec || spec.readOnly)) || sameValue(before[field], record[field])) continue;
    const seen = byWriter.get(node);
    if (!seen) byWriter.set(node, { hlc, fields: [field] });
    else {
      seen.fields.push(field);
      if (hlc > seen.hlc) seen.hlc = hlc;
    }
  }
  return [...byWriter.values()].flatMap(({ hlc, fields: changed }) => change(hlc, changed));
}
