import type { Migration } from '../../database.js';

/**
 * Automation rules per board and the notices their notify rules leave (docs/API.md
 * "Automation rules"): records like any other, so they sync.
 */
export const automationRules: Migration = {
  version: 39,
  name: 'automation-rules',
  up(db) {
    db.exec(`
      CREATE TABLE "automation_rule" (
        "id" TEXT PRIMARY KEY,
        "board_id" TEXT NOT NULL,
        "name" TEXT,
        "action" TEXT NOT NULL,
        "active" INTEGER NOT NULL DEFAULT 1,
        "status_id" TEXT,
        "next_status_id" TEXT,
        "notify" TEXT,
        "user_id" TEXT,
        "created_at" TEXT NOT NULL,
        "updated_at" TEXT NOT NULL,
        "deleted_at" TEXT
      );
      CREATE INDEX automation_rule_board ON "automation_rule"("board_id");
      CREATE TABLE "automation_notice" (
        "id" TEXT PRIMARY KEY,
        "board_id" TEXT,
        "rule_id" TEXT,
        "card_id" TEXT,
        "collection_id" TEXT,
        "user_id" TEXT,
        "card_name" TEXT,
        "next_stage" TEXT,
        "text" TEXT,
        "created_at" TEXT NOT NULL,
        "updated_at" TEXT NOT NULL,
        "deleted_at" TEXT
      );
      CREATE INDEX automation_notice_board ON "automation_notice"("board_id");
    `);
  },
};
