import type { Migration } from '../../database.js';

/**
 * Webhooks and their delivery queue (docs/API.md "Webhooks"):
 *  - webhook: the resource; health fields are kept by the delivery worker;
 *  - webhook_secret: each webhook's signing secret, apart from the record so it never reaches
 *    the change log or an answer after the one that created it;
 *  - webhook_delivery: one row per (webhook, event), written in the transaction of the change
 *    that caused the event, so a crash loses none. `seq` is the sending order; `due_at`
 *    (milliseconds) is when the delivery may be tried next.
 */
export const webhooks: Migration = {
  version: 8,
  name: 'webhooks',
  up(db) {
    db.exec(`
      CREATE TABLE "webhook" (
        "id" TEXT PRIMARY KEY,
        "url" TEXT NOT NULL,
        "description" TEXT,
        "active" INTEGER NOT NULL,
        "event_types" TEXT NOT NULL,
        "api_key_id" TEXT,
        "developer_client_id" TEXT,
        "fail_streak" INTEGER NOT NULL DEFAULT 0,
        "fail_streak_started_at" TEXT,
        "last_failed_at" TEXT,
        "disabled_until" TEXT,
        "created_at" TEXT NOT NULL,
        "updated_at" TEXT NOT NULL,
        "deleted_at" TEXT
      );
      CREATE TABLE webhook_secret (
        webhook_id TEXT PRIMARY KEY REFERENCES "webhook"("id"),
        secret TEXT NOT NULL
      );
      CREATE TABLE "webhook_delivery" (
        "seq" INTEGER PRIMARY KEY AUTOINCREMENT,
        "id" TEXT NOT NULL UNIQUE,
        "webhook_id" TEXT NOT NULL REFERENCES "webhook"("id"),
        "event_id" TEXT NOT NULL,
        "event" TEXT NOT NULL,
        "resource" TEXT NOT NULL,
        "record_id" TEXT NOT NULL,
        "status" TEXT NOT NULL,
        "attempts" INTEGER NOT NULL DEFAULT 0,
        "response_code" INTEGER,
        "error" TEXT,
        "duration_ms" INTEGER,
        "first_attempt_at" TEXT,
        "last_attempt_at" TEXT,
        "next_attempt_at" TEXT,
        "due_at" INTEGER NOT NULL,
        "delivered_at" TEXT,
        "redelivery_of" TEXT,
        "payload" TEXT NOT NULL,
        "created_at" TEXT NOT NULL,
        "updated_at" TEXT NOT NULL,
        "deleted_at" TEXT
      );
      CREATE INDEX webhook_delivery_log ON "webhook_delivery"("webhook_id", "id");
      CREATE INDEX webhook_delivery_pending ON "webhook_delivery"("webhook_id", "seq") WHERE "status" IN ('started', 'failed');
    `);
  },
};
