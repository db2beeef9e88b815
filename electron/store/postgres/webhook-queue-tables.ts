/**
 * The webhook delivery queue's columns and tables in an environment's schema on PostgreSQL
 * (docs/architecture.md "Team server on PostgreSQL", "The webhook queue"). Frozen history like
 * every migration.
 *
 * The queue is the `webhook_delivery` record table itself (migration 2), as on SQLite
 * (environment/0008-webhooks): a delivery is one row that is both the delivery log the API
 * lists and the work a node sends, so an attempt's result and what the log shows can never
 * disagree, and nothing has to be copied between two tables in step. This migration adds what
 * only the queue reads, none of it a declared field of the resource:
 *  - `seq`: the sending order within one transaction's deliveries;
 *  - `xid`: the enqueuing transaction's id. `seq` is handed out at insert, not at commit, so
 *    two nodes enqueuing at once could commit 6 before 5; a delivery is claimed only once its
 *    transaction is older than the claiming snapshot's xmin, and heads are taken in
 *    (xid, seq) order, so nothing that sorts before a sent delivery can still appear (the
 *    change-log cursor's rule, change-log.ts);
 *  - `due_at`: when the delivery may be tried next (milliseconds, as on SQLite);
 *  - `claimed_by`, `claimed_until`: the node sending it now, and until when its lease holds;
 *  - `webhook_secret`: each webhook's signing secret, apart from the record so it never reaches
 *    the change log or an answer after the one that created it.
 */
import type { PostgresMigration } from './postgres-database.js';

export const webhookQueueMigration: PostgresMigration = {
  version: 3,
  name: 'webhook-queue',
  async up(client) {
    await client.query(`
      ALTER TABLE "webhook_delivery"
        ADD COLUMN "seq" bigint GENERATED ALWAYS AS IDENTITY,
        ADD COLUMN "xid" xid8 NOT NULL DEFAULT pg_current_xact_id(),
        ADD COLUMN "due_at" bigint NOT NULL DEFAULT 0,
        ADD COLUMN "claimed_by" text,
        ADD COLUMN "claimed_until" bigint;
      CREATE INDEX "webhook_delivery_log" ON "webhook_delivery" ("webhook_id", "id");
      CREATE INDEX "webhook_delivery_pending" ON "webhook_delivery" ("webhook_id", "xid", "seq") WHERE "status" IN ('started', 'failed');
      CREATE TABLE "webhook_secret" (
        "webhook_id" text PRIMARY KEY REFERENCES "webhook" ("id"),
        "secret" text NOT NULL
      );
    `);
  },
};
