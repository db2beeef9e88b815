/**
 * The plan check's findings on a local replica (migrations 34 and 40, docs/API.md "Sync", "Plan
 * check"): what a sync's merge made of the plan that the local plan did not have before the
 * pull. The check (electron/api/planning/plan-check.ts) notes them; the planner accepts them.
 */
import { nowTimestamp, uuidv7 } from '../../shared/ids.js';
import type { PlanFinding, PlanFindingNotice, PlanFindingStatus } from '../../shared/plan-check.js';
import { onePerStore, SideTable } from './side-table.js';

interface Row extends Omit<PlanFinding, 'record' | 'details' | 'changes'> {
  record: string;
  details: string;
  changes: string;
}

/** The plan check's findings of an environment database (one per open store). */
export const planFindingsOf = onePerStore((store) => new PlanFindings(store));

/** The most findings one insert writes: a power of two, so the sizes of the rest are a handful of statements. */
const rowsPerInsert = 64;

export class PlanFindings extends SideTable {
  /**
   * Keeps findings. One already open under its key gets the newer figures and changes (the
   * planner decides once, on the latest); its first notice time stays. A pull may make hundreds:
   * they go in rows of up to 64 per statement, each size one cached statement.
   */
  notice(findings: readonly PlanFindingNotice[]): void {
    const noticedAt = nowTimestamp();
    for (let at = 0; at < findings.length;) {
      let size = rowsPerInsert;
      while (size > findings.length - at) size /= 2;
      const values: unknown[] = [];
      for (const finding of findings.slice(at, at + size)) {
        values.push(
          uuidv7(),
          finding.key,
          finding.kind,
          finding.board_id,
          finding.date,
          JSON.stringify(finding.record),
          finding.text,
          JSON.stringify(finding.details),
          JSON.stringify(finding.changes),
          noticedAt,
        );
      }
      this.sql(
        `INSERT INTO sync_plan_finding (id, key, kind, board_id, date, record, text, details, changes, noticed_at, status)
         VALUES ${Array.from({ length: size }, () => "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'open')").join(', ')}
         ON CONFLICT (key) WHERE status = 'open' DO UPDATE SET
           record = excluded.record, text = excluded.text, details = excluded.details, changes = excluded.changes`,
      ).run(...values);
      at += size;
    }
  }

  private entryOf(row: Row): PlanFinding {
    // The columns hold what notice() wrote from a PlanFindingNotice: its record, details and changes as JSON.
    const record = JSON.parse(row.record) as PlanFinding['record'];
    // As above: the details notice() wrote.
    const details = JSON.parse(row.details) as PlanFinding['details'];
    // As above: the changes notice() wrote.
    const changes = JSON.parse(row.changes) as PlanFinding['changes'];
    return { ...row, record, details, changes };
  }

  /** Newest first; only open ones unless `all`. */
  list(options: { all: boolean; limit: number; offset: number }): { count: number; data: PlanFinding[] } {
    const { count, rows } = this.page<Row>(
      options.all ? 'FROM sync_plan_finding' : "FROM sync_plan_finding WHERE status = 'open'",
      [],
      'noticed_at DESC, id DESC',
      options.limit,
      options.offset,
    );
    return { count, data: rows.map((row) => this.entryOf(row)) };
  }

  get(id: string): PlanFinding | undefined {
    const row = this.sql<Row>('SELECT * FROM sync_plan_finding WHERE id = ?').get(id);
    return row ? this.entryOf(row) : undefined;
  }

  resolve(id: string, status: Exclude<PlanFindingStatus, 'open'>): void {
    this.sql("UPDATE sync_plan_finding SET status = ?, resolved_at = ? WHERE id = ? AND status = 'open'").run(status, nowTimestamp(), id);
  }
}
