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
import type { Clocks } from '../store/sync-book.js';

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
  /** The fields the planner wrote that the merge changed here; none for a record that was new here (`created`). */
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

/** Fields every write stamps: no planner's change on their own. */
const stampFields = new Set(['created_at', 'updated_at']);

/** The change the merge made of a pulled record, named by the newest clock of the fields it wrote. */
export function pulledChange(
  entry: PulledRecord,
  before: Record<string, unknown> | undefined,
  fields: readonly string[],
  clocks: Clocks,
): PulledChange | undefined {
  if (!entry.record) return undefined;
  const newest = fields
    .map((field) => clocks[field] ?? entry.clocks[field])
    .reduce<string | undefined>((m, c) => (c && (!m || c > m) ? c : m), undefined);
  const parts = newest ? parseHlc(newest) : undefined;
  if (!parts) return undefined;
  return {
    resource: entry.resource,
    id: entry.id,
    before,
    after: entry.record,
    fields: before ? fields.filter((field) => !stampFields.has(field)) : [],
    created: before === undefined,
    changed_by: parts.node,
    changed_at: new Date(parts.millis).toISOString(),
  };
}
