/**
 * PostgreSQL's environment migration 24, SQLite's environment migration 39
 * (migrations/environment/0039-automation-rules.ts): automation rules per board and the
 * notices their notify rules leave (docs/API.md "Automation rules"). Frozen.
 */
import type { PostgresMigration } from './postgres-database.js';

export const automationRulesMigration: PostgresMigration = {
  version: 24,
  name: 'automation-rules',
  async up(client) {
    await client.query(`
        CREATE TABLE "automation_rule" ("id" text PRIMARY KEY, "board_id" text, "name" text, "action" text, "active" boolean, "status_id" text, "next_status_id" text, "notify" text, "user_id" text, "created_at" text NOT NULL, "updated_at" text NOT NULL, "deleted_at" text);
        CREATE INDEX "automation_rule_board" ON "automation_rule" ("board_id");
        CREATE TABLE "automation_notice" ("id" text PRIMARY KEY, "board_id" text, "rule_id" text, "card_id" text, "collection_id" text, "user_id" text, "card_name" text, "next_stage" text, "text" text, "created_at" text NOT NULL, "updated_at" text NOT NULL, "deleted_at" text);
        CREATE INDEX "automation_notice_board" ON "automation_notice" ("board_id");
    `);
  },
};
