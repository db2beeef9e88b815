/**
 * The team server's numbered PostgreSQL migrations (docs/architecture.md "Team server on
 * PostgreSQL"): the server's own tables (`serverMigrations`, in the `planner` schema) and the
 * tables every environment's schema gets (`environmentMigrations`, run with `search_path` set
 * to that schema). Frozen history, like the SQLite migrations: never edited, only appended to.
 */
import type { PostgresMigration } from './postgres-database.js';
import { payrollFilesMigration } from './payroll-files.js';
import { floorKiosksMigration } from './floor-kiosks.js';
import { overtimeBalanceMigration } from './overtime-balance.js';
import { automationRulesMigration } from './automation-rules.js';
import { skillsAndCrewsMigration } from './skills-and-crews.js';
import { companyHolidayTableMigration, recordTablesMigration } from './record-tables.js';
import { exceptionHandlingTableMigration } from './exception-handling-table.js';
import { hourCodesMigration } from './hour-codes.js';
import { kpiSnapshotTableMigration } from './kpi-snapshot-table.js';
import { stageSetupMigration } from './stage-setup.js';
import { closedPeriodTableMigration } from './closed-period-table.js';
import { notifiedExceptionsMigration } from './notified-exceptions.js';
import { secondShiftMigration } from './second-shift.js';
import { webhookQueueMigration } from './webhook-queue-tables.js';
import { oauthStateMigration } from './oauth-state.js';
import { rateLimitsMigration } from './rate-limits.js';
import { systemTablesMigration } from './system-tables.js';
import { attachmentContentMigration } from './attachment-content.js';
import { replicaMarksMigration } from './replica-marks-table.js';
import { syncClockTablesMigration } from './sync-clock-tables.js';
import { commandTablesMigration } from './command-tables.js';
import { userPasswordsMigration } from './user-passwords-table.js';
import { changeLogCompactionMigration } from './change-log.js';
import { keptWriterMigration } from './kept-data.js';
import { orderRowScrappedMigration } from './order-row-scrapped.js';
import { scenarioTableMigration } from './scenario-tables.js';

export const serverMigrations: readonly PostgresMigration[] = [
  {
    version: 1,
    name: 'environment-registry',
    async up(client) {
      // Nobody but the server's own user reads the registry: an environment's role, set for
      // every query of that environment, has no USAGE on this schema.
      await client.query(`
        REVOKE ALL ON SCHEMA planner FROM PUBLIC;
        CREATE TABLE planner.environment_schemas (
          environment_id text PRIMARY KEY,
          schema_name text NOT NULL UNIQUE,
          role_name text NOT NULL UNIQUE,
          version integer NOT NULL DEFAULT 0,
          created_at timestamptz NOT NULL DEFAULT now()
        );
      `);
    },
  },
  oauthStateMigration,
  rateLimitsMigration,
  systemTablesMigration,
];

export const environmentMigrations: readonly PostgresMigration[] = [
  {
    version: 1,
    name: 'change-log',
    async up(client) {
      // `xid` is the writing transaction's id: a reader returns only changes of transactions
      // older than its snapshot's xmin, all of which have ended, so its cursor never passes a
      // change that commits later (docs/architecture.md "Team server on PostgreSQL").
      await client.query(`
        CREATE TABLE change_log (
          position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
          resource text NOT NULL,
          record_id text NOT NULL,
          op text NOT NULL CHECK (op IN ('create', 'update', 'delete')),
          fields jsonb,
          at timestamptz NOT NULL DEFAULT now()
        );
        CREATE INDEX change_log_cursor ON change_log (xid, position);
        CREATE INDEX change_log_record ON change_log (resource, record_id);
      `);
    },
  },
  recordTablesMigration,
  webhookQueueMigration,
  attachmentContentMigration,
  replicaMarksMigration,
  syncClockTablesMigration,
  commandTablesMigration,
  userPasswordsMigration,
  changeLogCompactionMigration,
  keptWriterMigration,
  companyHolidayTableMigration,
  orderRowScrappedMigration,
  exceptionHandlingTableMigration,
  hourCodesMigration,
  kpiSnapshotTableMigration,
  stageSetupMigration,
  closedPeriodTableMigration,
  notifiedExceptionsMigration,
  payrollFilesMigration,
  floorKiosksMigration,
  overtimeBalanceMigration,
  skillsAndCrewsMigration,
  secondShiftMigration,
  automationRulesMigration,
  scenarioTableMigration,
];
