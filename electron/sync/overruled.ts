/**
 * Noticing an offline edit that lost (docs/API.md "Sync", "Overruled edits"). Fields merge
 * last-writer-wins by clock, so when this replica and another computer both change a field,
 * the later change wins everywhere — and the planner whose change lost must be told, not left
 * to find out.
 *
 * A loss is a field that this replica wrote (the local clock is its own node's) and that the
 * remote has not yet confirmed, replaced by a different value with a later clock. Unconfirmed
 * means the write is still in the outbox, or was just pushed and the remote's answer says it
 * kept a later value (a pushed mutation is `applied` with the remote's `record` and `clocks`
 * when some of its fields lost). A write the remote already took and someone changed later,
 * having seen it, is an ordinary later edit and is not listed. Only fields a planner writes
 * count: server fields (`updated_at`, a collection's dates, ranks) follow their records.
 */
import { own } from '../../shared/fields.js';
import { parseHlc } from '../../shared/hlc.js';
import type { ReplicaBookWrites } from '../store/replica-book.js';
import type { TableDef } from '../store/table-def.js';

const serverFields = new Set(['id', 'created_at', 'updated_at', 'deleted_at']);

/** JSON with sorted keys, so `{a, b}` and `{b, a}` are the same value. */
function sameValue(a: unknown, b: unknown): boolean {
  const canonical = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(canonical);
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(
        Object.keys(value)
          .sort()
          .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
      );
    }
    return value ?? null;
  };
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

/** Watches the merges of one sync run for losses and records them; `noticed` counts them. */
export class OverruledWatch {
  noticed = 0;

  /** `node`: this replica's id in the clocks of its own writes (ReplicaBookReads.node). */
  constructor(private readonly node: string) {}

  /**
   * Called by the merge for a field about to take the remote's value (its clock is later
   * than the local one), in its transaction (`replica`). `local` is the record as this replica has it.
   */
  async check(
    replica: ReplicaBookWrites,
    table: TableDef,
    id: string,
    field: string,
    local: Record<string, unknown>,
    localClock: string | undefined,
    theirs: unknown,
    theirClock: string | undefined,
  ): Promise<void> {
    if (localClock === undefined || theirClock === undefined || serverFields.has(field)) return;
    const spec = own(table.fields, field);
    if (!spec || spec.readOnly) return;
    if (parseHlc(localClock)?.node !== this.node) return;
    if (sameValue(local[field], theirs)) return;
    if (!(await replica.stillToConfirm(table.resource, id, localClock))) return;
    await replica.noticeOverruled({
      resource: table.resource,
      record_id: id,
      field,
      mine: local[field],
      mine_clock: localClock,
      theirs,
      their_clock: theirClock,
    });
    this.noticed++;
  }
}
