/**
 * Plan scenarios of a data folder's environment (docs/API.md "Scenarios",
 * docs/decisions/scenarios.md): each one a copy of the environment's SQLite file,
 * `env-<id>.scenario-<scenario id>.sqlite` beside it, made with `VACUUM INTO`, and listed in
 * the environment file's `scenario` table with the change-log position it was copied at.
 *
 * A scenario's store is opened here, never through the data folder (`DataDir.environment`):
 * that would attach the environment's webhook events and sync outbox to it. It gets the
 * bookkeeping of a remote instead (installScenarioBook): field clocks in its own file, no
 * outbox, so what is written in a scenario never leaves it.
 */
import { existsSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { nowTimestamp } from '../../shared/ids.js';
import type { ChangeEvent } from '../../shared/ipc.js';
import { EnvironmentStore } from './environment-store.js';
import type { StoredRecord } from '../../shared/fields.js';
import { onePerStore } from './side-table.js';
import { fixedTextStatements } from './statement-cache.js';
import { installScenarioBook } from './sync-book.js';
import { tableNamed } from './tables.js';

/** A scenario as its routes answer it. */
export interface Scenario {
  id: string;
  name: string;
  description: string | null;
  /** The live plan's change-log position the copy was made at. */
  base: number;
  created_at: string;
}

/** What a scenario did to one record since its fork, as promote and compare read it. */
export interface ScenarioChange {
  resource: string;
  id: string;
  /** Made in the scenario: the live plan never had it. */
  created: boolean;
  /** The fields the scenario wrote (bookkeeping fields left out). */
  written: string[];
  /** Each written field's value at the fork: the value before the scenario's first write of it. */
  fork: Record<string, unknown>;
  /** The record in the scenario now, `deleted_at` included. */
  now: StoredRecord & { deleted_at: string | null };
}

/** The scenario books of one environment, each call in that environment's turn (record-store.ts). */
export interface ScenarioBook<Records> {
  list(): Promise<Scenario[]>;
  get(id: string): Promise<Scenario | undefined>;
  /** Copies the environment's file as it is now into a new scenario; undefined when it keeps `max` already. */
  fork(scenario: Pick<Scenario, 'id' | 'name' | 'description'>, max: number): Promise<Scenario | undefined>;
  /** Throws a scenario away, its file too; false when there is none. */
  drop(id: string): Promise<boolean>;
  /** The records of a scenario, opened on first use; undefined when there is no such scenario. */
  records(id: string): Promise<Records | undefined>;
  /** What a scenario changed since its fork, one entry per record, in the order first changed. */
  changes(id: string): Promise<ScenarioChange[]>;
}

/** How the record store of a scenario's file is made, and its turn (record-store.ts passes its own). */
export interface ScenarioRecords<Records> {
  recordsOf(store: EnvironmentStore): Records;
  turnOf(store: EnvironmentStore): <T>(fn: () => T) => Promise<T>;
}

/** Fields every write touches: never a change of the plan. */
const bookkeeping = new Set(['id', 'created_at', 'updated_at']);

interface ChangeRow {
  resource: string;
  record_id: string;
  op: ChangeEvent['op'];
  fields: string | null;
  before: string | null;
}

const statementsOf = onePerStore((store) => fixedTextStatements(store.db));

/** The scenario files open now, per environment store: closed with it. */
const openScenarios = onePerStore((live) => {
  const open = new Map<string, EnvironmentStore>();
  live.onClose(() => {
    for (const store of open.values()) store.close();
    open.clear();
  });
  return open;
});

/** Where a scenario's file is: beside its environment's, named by ids only (data-dir.ts). */
export function scenarioFile(live: EnvironmentStore, id: string): string {
  const file = live.db.name;
  return join(dirname(file), `${basename(file, '.sqlite')}.scenario-${id}.sqlite`);
}

function readScenarios(live: EnvironmentStore): Scenario[] {
  return statementsOf(live).rows<Scenario>('SELECT id, name, description, base, created_at FROM scenario ORDER BY created_at, id').all();
}

function readScenario(live: EnvironmentStore, id: string): Scenario | undefined {
  return statementsOf(live).rows<Scenario>('SELECT id, name, description, base, created_at FROM scenario WHERE id = ?').get(id);
}

/** The store of a listed scenario; undefined when its file is gone (a data folder restored from a backup, which has none). */
function openScenario(live: EnvironmentStore, id: string): EnvironmentStore | undefined {
  const open = openScenarios(live);
  let store = open.get(id);
  if (!store) {
    const file = scenarioFile(live, id);
    // Opening a missing file would make an empty plan of it.
    if (!existsSync(file)) return undefined;
    store = EnvironmentStore.open(file, live.environmentId);
    installScenarioBook(store, live);
    open.set(id, store);
  }
  return store;
}

/** The scenario's change-log rows since the fork, as one change per record. */
function changesSince(scenario: EnvironmentStore, base: number): ScenarioChange[] {
  const rows = statementsOf(scenario)
    .rows<ChangeRow>('SELECT resource, record_id, op, fields, before FROM change_log WHERE seq > ? ORDER BY seq')
    .all(base);
  const byRecord = new Map<string, Omit<ScenarioChange, 'now'>>();
  for (const row of rows) {
    // Rows without fields are data kept for other versions, or bulk loads: no plan change.
    if (row.fields === null || !tableNamed(row.resource)) continue;
    const key = `${row.resource}/${row.record_id}`;
    const fields = JSON.parse(row.fields) as Record<string, unknown>;
    const before = row.before ? (JSON.parse(row.before) as Record<string, unknown>) : null;
    let change = byRecord.get(key);
    if (!change) {
      change = { resource: row.resource, id: row.record_id, created: row.op === 'create' && !before, written: [], fork: {} };
      byRecord.set(key, change);
    }
    for (const field of Object.keys(fields)) {
      if (bookkeeping.has(field) || change.written.includes(field)) continue;
      change.written.push(field);
      change.fork[field] = before?.[field] ?? null;
    }
  }
  const changes: ScenarioChange[] = [];
  for (const change of byRecord.values()) {
    const now = scenario.getForSync(tableNamed(change.resource)!, change.id);
    if (now) changes.push({ ...change, now });
  }
  return changes;
}

/**
 * The scenario book of an environment's store; `inTurn` runs a call in its turn, outside any
 * transaction (VACUUM INTO cannot run inside one).
 */
export function sqliteScenarioBook<Records>(
  live: EnvironmentStore,
  inTurn: <T>(fn: () => T) => Promise<T>,
  scenarios: ScenarioRecords<Records>,
): ScenarioBook<Records> {
  return {
    list: () => inTurn(() => readScenarios(live)),
    get: (id) => inTurn(() => readScenario(live, id)),
    fork: ({ id, name, description }, max) =>
      inTurn(() => {
        // Counted in the same turn as the copy: two requests at once cannot both make the last one.
        if (readScenarios(live).length >= max) return undefined;
        const base = statementsOf(live).rows<{ seq: number }>('SELECT coalesce(max(seq), 0) AS seq FROM change_log').get()!.seq;
        const file = scenarioFile(live, id);
        try {
          // A consistent copy of the committed file, compacted: no transaction is open in this turn.
          live.db.prepare('VACUUM INTO ?').run(file);
          const scenario: Scenario = { id, name, description, base, created_at: nowTimestamp() };
          statementsOf(live)
            .rows('INSERT INTO scenario (id, name, description, base, created_at) VALUES (?, ?, ?, ?, ?)')
            .run(id, name, description, base, scenario.created_at);
          return scenario;
        } catch (error) {
          rmSync(file, { force: true });
          throw error;
        }
      }),
    drop: async (id) => {
      const open = openScenarios(live);
      const found = await inTurn(() => readScenario(live, id));
      if (!found) return false;
      // Closed in its own turn: a request still writing in the scenario finishes first.
      const store = open.get(id);
      if (store) await scenarios.turnOf(store)(() => store.close());
      return inTurn(() => {
        open.delete(id);
        if (!readScenario(live, id)) return false;
        statementsOf(live).rows('DELETE FROM scenario WHERE id = ?').run(id);
        const file = scenarioFile(live, id);
        for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
        return true;
      });
    },
    records: (id) =>
      inTurn(() => {
        const store = readScenario(live, id) ? openScenario(live, id) : undefined;
        return store ? scenarios.recordsOf(store) : undefined;
      }),
    changes: async (id) => {
      const found = await inTurn(() => {
        const scenario = readScenario(live, id);
        const store = scenario ? openScenario(live, id) : undefined;
        return scenario && store ? { scenario, store } : undefined;
      });
      if (!found) return [];
      return scenarios.turnOf(found.store)(() => changesSince(found.store, found.scenario.base));
    },
  };
}
