import type { Migration } from '../../database.js';

/**
 * Base data: boards with their labels, statuses, saved views, checklist templates and custom
 * field definitions; stages and the activities they allow; resources with their schedule
 * deviations; groups; spaces; users.
 */
export const baseData: Migration = {
  version: 4,
  name: 'base-data',
  up(db) {
    db.exec(`
      CREATE TABLE "board" (
        "id" TEXT PRIMARY KEY,
        "name" TEXT NOT NULL,
        "color" TEXT,
        "visibility" TEXT,
        "capacity_method" TEXT,
        "split_cards_by_activity" INTEGER,
        "own_backlog" INTEGER,
        "dependency_behavior" TEXT,
        "workdays" TEXT,
        "space_id" TEXT,
        "card_lock_options" TEXT,
        "external_ref" TEXT,
        "archived_at" TEXT,
        "created_at" TEXT NOT NULL,
        "updated_at" TEXT NOT NULL,
        "deleted_at" TEXT
      );
      CREATE TABLE "label" (
        "id" TEXT PRIMARY KEY,
        "board_id" TEXT,
        "name" TEXT NOT NULL,
        "color" TEXT,
        "priority" INTEGER,
        "created_at" TEXT NOT NULL,
        "updated_at" TEXT NOT NULL,
        "deleted_at" TEXT
      );
      CREATE TABLE "status" (
        "id" TEXT PRIMARY KEY,
        "board_id" TEXT,
        "name" TEXT NOT NULL,
        "color" TEXT,
        "priority" INTEGER,
        "entry" INTEGER,
        "exit" INTEGER,
        "created_at" TEXT NOT NULL,
        "updated_at" TEXT NOT NULL,
        "deleted_at" TEXT
      );
      CREATE TABLE "board_view" (
        "id" TEXT PRIMARY KEY,
        "board_id" TEXT,
        "name" TEXT NOT NULL,
        "type" TEXT,
        "filters" TEXT,
        "settings" TEXT,
        "created_at" TEXT NOT NULL,
        "updated_at" TEXT NOT NULL,
        "deleted_at" TEXT
      );
      CREATE TABLE "board_checklist" (
        "id" TEXT PRIMARY KEY,
        "board_id" TEXT,
        "name" TEXT NOT NULL,
        "items" TEXT,
        "priority" INTEGER,
        "created_at" TEXT NOT NULL,
        "updated_at" TEXT NOT NULL,
        "deleted_at" TEXT
      );
      CREATE TABLE "board_custom_field" (
        "id" TEXT PRIMARY KEY,
        "board_id" TEXT,
        "name" TEXT NOT NULL,
        "type" TEXT,
        "scope" TEXT,
        "priority" INTEGER,
        "options" TEXT,
        "list" TEXT,
        "created_at" TEXT NOT NULL,
        "updated_at" TEXT NOT NULL,
        "deleted_at" TEXT
      );
      CREATE TABLE "stage" (
        "id" TEXT PRIMARY KEY,
        "board_id" TEXT NOT NULL,
        "name" TEXT NOT NULL,
        "priority" INTEGER,
        "delay_day" INTEGER,
        "independent" INTEGER,
        "efficiency" INTEGER,
        "default_percentage" INTEGER,
        "capacity_notification" INTEGER,
        "capacity_notification_min" REAL,
        "capacity_notification_max" REAL,
        "created_at" TEXT NOT NULL,
        "updated_at" TEXT NOT NULL,
        "deleted_at" TEXT
      );
      CREATE TABLE "stage_activity" (
        "id" TEXT PRIMARY KEY,
        "stage_id" TEXT NOT NULL,
        "activity_id" TEXT NOT NULL,
        "priority" INTEGER,
        "created_at" TEXT NOT NULL,
        "updated_at" TEXT NOT NULL,
        "deleted_at" TEXT
      );
      CREATE TABLE "resource" (
        "id" TEXT PRIMARY KEY,
        "name" TEXT NOT NULL,
        "type" TEXT,
        "description" TEXT,
        "start_date" TEXT,
        "end_date" TEXT,
        "avatar" TEXT,
        "workdays" TEXT,
        "integration_schedule" INTEGER,
        "color_hex" TEXT,
        "boards" TEXT,
        "external_ref" TEXT,
        "transaction" TEXT,
        "archived_at" TEXT,
        "created_at" TEXT NOT NULL,
        "updated_at" TEXT NOT NULL,
        "deleted_at" TEXT
      );
      CREATE TABLE "schedule_deviation" (
        "id" TEXT PRIMARY KEY,
        "resource_id" TEXT,
        "description" TEXT,
        "type" TEXT,
        "start_date" TEXT NOT NULL,
        "end_date" TEXT NOT NULL,
        "time" INTEGER,
        "external_ref" TEXT,
        "created_at" TEXT NOT NULL,
        "updated_at" TEXT NOT NULL,
        "deleted_at" TEXT
      );
      CREATE TABLE "group" (
        "id" TEXT PRIMARY KEY,
        "name" TEXT NOT NULL,
        "created_at" TEXT NOT NULL,
        "updated_at" TEXT NOT NULL,
        "deleted_at" TEXT
      );
      CREATE TABLE "group_resource" (
        "id" TEXT PRIMARY KEY,
        "group_id" TEXT NOT NULL,
        "resource_id" TEXT NOT NULL,
        "created_at" TEXT NOT NULL,
        "updated_at" TEXT NOT NULL,
        "deleted_at" TEXT
      );
      CREATE TABLE "space" (
        "id" TEXT PRIMARY KEY,
        "name" TEXT NOT NULL,
        "description" TEXT,
        "created_at" TEXT NOT NULL,
        "updated_at" TEXT NOT NULL,
        "deleted_at" TEXT
      );
      CREATE TABLE "user" (
        "id" TEXT PRIMARY KEY,
        "email" TEXT NOT NULL,
        "username" TEXT,
        "firstname" TEXT,
        "infix" TEXT,
        "lastname" TEXT,
        "fullname" TEXT,
        "display_name" TEXT,
        "gender" TEXT,
        "mobile" TEXT,
        "avatar" TEXT,
        "about" TEXT,
        "date_of_birth" TEXT,
        "role" TEXT NOT NULL,
        "status" TEXT,
        "card_visibility" TEXT,
        "language" TEXT,
        "timezone" TEXT,
        "resource_id" TEXT,
        "invite_id" TEXT,
        "notify_own_changes" INTEGER,
        "external_ref" TEXT,
        "transaction" TEXT,
        "archived_at" TEXT,
        "created_at" TEXT NOT NULL,
        "updated_at" TEXT NOT NULL,
        "deleted_at" TEXT
      );
      CREATE INDEX label_board ON "label"("board_id");
      CREATE INDEX status_board ON "status"("board_id");
      CREATE INDEX board_view_board ON "board_view"("board_id");
      CREATE INDEX board_checklist_board ON "board_checklist"("board_id");
      CREATE INDEX board_custom_field_board ON "board_custom_field"("board_id");
      CREATE INDEX stage_board ON "stage"("board_id");
      CREATE INDEX stage_activity_stage ON "stage_activity"("stage_id");
      CREATE INDEX stage_activity_activity ON "stage_activity"("activity_id");
      CREATE INDEX schedule_deviation_resource ON "schedule_deviation"("resource_id");
      CREATE INDEX group_resource_group ON "group_resource"("group_id");
      CREATE INDEX group_resource_resource ON "group_resource"("resource_id");
      CREATE INDEX board_space ON "board"("space_id");
      CREATE INDEX user_email ON "user"("email");
      CREATE INDEX board_external_ref ON "board"("external_ref") WHERE "external_ref" IS NOT NULL;
      CREATE INDEX resource_external_ref ON "resource"("external_ref") WHERE "external_ref" IS NOT NULL;
      CREATE INDEX schedule_deviation_external_ref ON "schedule_deviation"("external_ref") WHERE "external_ref" IS NOT NULL;
      CREATE INDEX user_external_ref ON "user"("external_ref") WHERE "external_ref" IS NOT NULL;
    `);
  },
};
