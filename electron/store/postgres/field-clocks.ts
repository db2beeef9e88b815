/**
 * The remote's field clocks on PostgreSQL (docs/architecture.md "Outbox and clocks", "Team
 * server on PostgreSQL"; docs/API.md "Sync"): per record, the hybrid clock of each field's last
 * write, which pulls send with the records and pushes are judged by. The operations of
 * `SyncBook` (`clocksOf`, `clocksOfMany`, `setClocks`, `insertClocks`, `mergeClocks`) with
 * `Promise` results, each on a client inside `withEnvironment`, in the caller's transaction;
 * `clocksOfWrite` is what SyncBook's write hook gives the fields of a remote's write.
 *
 * Several nodes write one environment at once. SyncBook merges by reading the row, merging in
 * JavaScript and writing it back, which is safe on SQLite (one writer). On PostgreSQL two nodes
 * merging clocks of the same record at the same moment would both read the same old row and
 * the second write would drop the first one's newer clock. So a merge is one statement,
 * `INSERT … ON CONFLICT DO UPDATE SET clocks = newer_clocks(field_clock.clocks,
 * excluded.clocks)`: the upsert locks the record's row, and when another transaction changed
 * it meanwhile it waits for that one's commit and computes the per-field maximum from the row
 * as that one left it (READ COMMITTED re-reads the newest version of a row it had to wait
 * for). Whichever arrives first, every field ends with its latest clock.
 */
import type { HybridClock } from '../../../shared/hlc.js';
import type { Clocks } from '../sync-book.js';
import type { PostgresClient } from './postgres-database.js';

export type { Clocks };

/** The clocks of one record's fields (empty when it has none). */
export async function clocksOf(client: PostgresClient, resource: string, id: string): Promise<Clocks> {
  const { rows } = await client.query<{ clocks: Clocks }>('SELECT clocks FROM field_clock WHERE resource = $1 AND record_id = $2', [
    resource,
    id,
  ]);
  return rows[0]?.clocks ?? {};
}

/**
 * The clocks of many records of one resource, by record id (only those with some). One
 * statement whatever the count: the ids go as one array parameter, not a parameter each, so
 * there is no chunking (SQLite's 500 per query) to do.
 */
export async function clocksOfMany(client: PostgresClient, resource: string, ids: readonly string[]): Promise<Map<string, Clocks>> {
  const out = new Map<string, Clocks>();
  if (ids.length === 0) return out;
  const { rows } = await client.query<{ record_id: string; clocks: Clocks }>(
    'SELECT record_id, clocks FROM field_clock WHERE resource = $1 AND record_id = ANY($2::text[])',
    [resource, ids],
  );
  for (const row of rows) out.set(row.record_id, row.clocks);
  return out;
}

/**
 * Sets the clocks of some fields, older or not (after taking the remote's version of them),
 * keeping the other fields' clocks: `||` over the locked row, one statement, so a concurrent
 * merge of other fields is not lost either.
 */
export async function setClocks(client: PostgresClient, resource: string, id: string, clocks: Clocks): Promise<void> {
  await client.query(
    `INSERT INTO field_clock (resource, record_id, clocks) VALUES ($1, $2, $3::jsonb)
     ON CONFLICT (resource, record_id) DO UPDATE SET clocks = field_clock.clocks || excluded.clocks`,
    [resource, id, JSON.stringify(clocks)],
  );
}

/**
 * Merges clocks into a record's: each field takes the later of its clock and the given one
 * (text order, shared/hlc.ts), in one statement (see the top of this file for why).
 */
export async function mergeClocks(client: PostgresClient, resource: string, id: string, clocks: Clocks): Promise<void> {
  await client.query(mergeClocksSql(1), [resource, id, JSON.stringify(clocks)]);
}

/** Records per statement in `insertClocks`: two array parameters, so bounded by size, not count. */
const insertBatch = 5_000;

/**
 * Clocks of records that have none yet, as they are: a bulk load (a copy, a first snapshot).
 * Clocks given as text are JSON already. A record that has clocks already fails the insert
 * (its key is taken), as in SyncBook, and with it the caller's transaction.
 */
export async function insertClocks(
  client: PostgresClient,
  resource: string,
  records: readonly { id: string; clocks: Clocks | string }[],
): Promise<void> {
  for (let i = 0; i < records.length; i += insertBatch) {
    const batch = records.slice(i, i + insertBatch);
    await client.query(
      `INSERT INTO field_clock (resource, record_id, clocks)
       SELECT $1, r.id, r.clocks::jsonb FROM unnest($2::text[], $3::text[]) AS r (id, clocks)`,
      [resource, batch.map((r) => r.id), batch.map((r) => (typeof r.clocks === 'string' ? r.clocks : JSON.stringify(r.clocks)))],
    );
  }
}

/** A write of the remote, as SyncBook's write hook sees it (`LoggedChange`, what the clocks need). */
export interface ClockedWrite {
  resource: string;
  id: string;
  /** The fields written (all of them on create); `id` gets no clock. */
  fields: Record<string, unknown> | null;
  /** `local`: a write made here; `sync`: another replica's change, with that replica's clocks. */
  origin: { kind: 'local' } | { kind: 'sync'; clocks: Clocks };
}

/**
 * The clocks of a write (SyncBook's write hook on a remote, which keeps no outbox): a local
 * write stamps each field it writes with one fresh clock of this node's `clock` (each node
 * with a node id of its own, so two nodes never make equal clocks); a sync write takes the
 * clocks its replica gave for the fields it writes. The change log merges them with the
 * write's row, in its transaction and round trip (change-log.ts, appendChange).
 */
export function clocksOfWrite(clock: HybridClock, write: ClockedWrite): Clocks {
  const fields = Object.keys(write.fields ?? {}).filter((f) => f !== 'id');
  const origin = write.origin;
  // Built with Object.fromEntries, so no field name can reach the object's prototype.
  if (origin.kind === 'sync')
    return Object.fromEntries(fields.filter((f) => Object.hasOwn(origin.clocks, f) && origin.clocks[f]).map((f) => [f, origin.clocks[f]!]));
  const hlc = clock.now();
  return Object.fromEntries(fields.map((f) => [f, hlc]));
}

/**
 * The upsert of mergeClocks, as a statement that a change-log insert can run in the same round
 * trip (change-log.ts, appendChange): `$n` numbers its three parameters from `first`.
 */
export function mergeClocksSql(first: number): string {
  const [resource, id, clocks] = [first, first + 1, first + 2].map((n) => `$${n}`);
  return `INSERT INTO field_clock (resource, record_id, clocks) VALUES (${resource}, ${id}, newer_clocks('{}'::jsonb, ${clocks}::jsonb))
     ON CONFLICT (resource, record_id) DO UPDATE SET clocks = newer_clocks(field_clock.clocks, excluded.clocks)`;
}
