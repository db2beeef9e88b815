/**
 * The record tables of an environment's schema on PostgreSQL: environment migration 2, one
 * table per declared resource with the columns the declarations had when it was written
 * (SQLite environment schema 22), and a unique index per uniqueness rule (listed in migrations.ts). Frozen history like
 * every migration: a field declared later gets a migration of its own, and the store test
 * `test/store/record-store.test.ts` fails until it has one.
 *
 * Column types: text for text, ids, dates and instants (ISO 8601 text orders as the instant
 * does, as in SQLite), `bigint` for integers, `double precision` for numbers, `boolean`, and
 * text holding JSON for JSON fields, as in SQLite (docs/architecture.md "Team server on
 * PostgreSQL"). A unique index counts soft-deleted records too, as the SQLite store's check
 * does, and holds only where every column of the rule has a value.
 */
import { secondShiftMigration } from './second-shift.js';
import { orderRowScrappedMigration } from './order-row-scrapped.js';
import type { PostgresMigration } from './postgres-database.js';
import { payrollFilesMigration } from './payroll-files.js';
import { overtimeBalanceMigration } from './overtime-balance.js';
import { skillsAndCrewsMigration } from './skills-and-crews.js';
import { exceptionHandlingTableMigration } from './exception-handling-table.js';
import { hourCodesMigration } from './hour-codes.js';
import { kpiSnapshotTableMigration } from './kpi-snapshot-table.js';
import { stageSetupMigration } from './stage-setup.js';
import { closedPeriodTableMigration } from './closed-period-table.js';
import { automationRulesMigration } from './automation-rules.js';
import { notifiedExceptionsMigration } from './notified-exceptions.js';

export const recordTablesMigration: PostgresMigration = {
  version: 2,
  name: 'record-tables',
  async up(client) {
    await client.query(`
        CREATE TABLE "project" ("id" text PRIMARY KEY, "name" text, "description" text, "code" text, "transaction" text, "external_ref" text, "created_at" text NOT NULL, "updated_at" text NOT NULL, "deleted_at" text);
        CREATE UNIQUE INDEX "project_unique_external_ref" ON "project" ("external_ref") WHERE "external_ref" IS NOT NULL;
        CREATE TABLE "order" ("id" text PRIMARY KEY, "project_id" text, "warehouse_id" text, "relation_id" text, "item_id" text, "address_id" text, "collection_id" text, "meta" text, "transaction" text, "code" text, "type" text, "sub_type" text, "status" text, "note" text, "description" text, "contact" text, "date" text, "promised_date" text, "desired_date" text, "delivered_date" text, "quantity" double precision, "relation_ref" text, "external_ref" text, "external_url" text, "created_at" text NOT NULL, "updated_at" text NOT NULL, "deleted_at" text);
        CREATE UNIQUE INDEX "order_unique_external_ref_type_sub_type" ON "order" ("external_ref", "type", "sub_type") WHERE "external_ref" IS NOT NULL AND "type" IS NOT NULL AND "sub_type" IS NOT NULL;
        CREATE TABLE "order_row" ("id" text PRIMARY KEY, "order_id" text, "code" text, "description" text, "item_id" text, "activity_id" text, "transaction" text, "position" bigint, "type" text, "unit" text, "item_code" text, "reserved" double precision, "quantity" double precision, "quantity_delivered" double precision, "quantity_backorder" double precision, "quantity_original" double precision, "status" text, "delivered_date" text, "resource_ref" text, "external_ref" text, "created_at" text NOT NULL, "updated_at" text NOT NULL, "deleted_at" text);
        CREATE UNIQUE INDEX "order_row_unique_external_ref" ON "order_row" ("external_ref") WHERE "external_ref" IS NOT NULL;
        CREATE TABLE "order_row_supply" ("id" text PRIMARY KEY, "supplier_row_id" text, "receiver_row_id" text, "supplier_order_id" text, "created_at" text NOT NULL, "updated_at" text NOT NULL, "deleted_at" text);
        CREATE TABLE "item" ("id" text PRIMARY KEY, "description" text, "code" text, "type" text, "stockmanagement" boolean, "unit" text, "note" text, "location" text, "external_ref" text, "created_at" text NOT NULL, "updated_at" text NOT NULL, "deleted_at" text);
        CREATE UNIQUE INDEX "item_unique_external_ref" ON "item" ("external_ref") WHERE "external_ref" IS NOT NULL;
        CREATE TABLE "relation" ("id" text PRIMARY KEY, "name" text, "type" text, "description" text, "email" text, "phone" text, "fax" text, "website" text, "note" text, "external_ref" text, "created_at" text NOT NULL, "updated_at" text NOT NULL, "deleted_at" text);
        CREATE UNIQUE INDEX "relation_unique_external_ref" ON "relation" ("external_ref") WHERE "external_ref" IS NOT NULL;
        CREATE TABLE "warehouse" ("id" text PRIMARY KEY, "name" text, "code" text, "external_ref" text, "created_at" text NOT NULL, "updated_at" text NOT NULL, "deleted_at" text);
        CREATE UNIQUE INDEX "warehouse_unique_external_ref" ON "warehouse" ("external_ref") WHERE "external_ref" IS NOT NULL;
        CREATE TABLE "address" ("id" text PRIMARY KEY, "name" text, "street1" text, "street2" text, "postal_code" text, "city" text, "country" text, "latitude" double precision, "longitude" double precision, "relation_id" text, "external_ref" text, "created_at" text NOT NULL, "updated_at" text NOT NULL, "deleted_at" text);
        CREATE UNIQUE INDEX "address_unique_external_ref" ON "address" ("external_ref") WHERE "external_ref" IS NOT NULL;
        CREATE TABLE "board" ("id" text PRIMARY KEY, "name" text, "color" text, "visibility" text, "capacity_method" text, "split_cards_by_activity" boolean, "own_backlog" boolean, "dependency_behavior" text, "workdays" text, "space_id" text, "card_lock_options" text, "external_ref" text, "archived_at" text, "created_at" text NOT NULL, "updated_at" text NOT NULL, "deleted_at" text);
        CREATE UNIQUE INDEX "board_unique_external_ref" ON "board" ("external_ref") WHERE "external_ref" IS NOT NULL;
        CREATE TABLE "label" ("id" text PRIMARY KEY, "board_id" text, "name" text, "color" text, "priority" bigint, "created_at" text NOT NULL, "updated_at" text NOT NULL, "deleted_at" text);
        CREATE TABLE "status" ("id" text PRIMARY KEY, "board_id" text, "name" text, "color" text, "priority" bigint, "entry" boolean, "exit" boolean, "created_at" text NOT NULL, "updated_at" text NOT NULL, "deleted_at" text);
        CREATE TABLE "board_view" ("id" text PRIMARY KEY, "board_id" text, "name" text, "type" text, "filters" text, "settings" text, "user_id" text, "created_at" text NOT NULL, "updated_at" text NOT NULL, "deleted_at" text);
        CREATE TABLE "board_checklist" ("id" text PRIMARY KEY, "board_id" text, "name" text, "items" text, "priority" bigint, "created_at" text NOT NULL, "updated_at" text NOT NULL, "deleted_at" text);
        CREATE TABLE "board_custom_field" ("id" text PRIMARY KEY, "board_id" text, "name" text, "type" text, "scope" text, "priority" bigint, "options" text, "list" text, "created_at" text NOT NULL, "updated_at" text NOT NULL, "deleted_at" text);
        CREATE TABLE "stage" ("id" text PRIMARY KEY, "board_id" text, "name" text, "priority" bigint, "delay_day" bigint, "independent" boolean, "efficiency" bigint, "default_percentage" bigint, "capacity_notification" boolean, "capacity_notification_min" double precision, "capacity_notification_max" double precision, "created_at" text NOT NULL, "updated_at" text NOT NULL, "deleted_at" text);
        CREATE TABLE "stage_activity" ("id" text PRIMARY KEY, "stage_id" text, "activity_id" text, "priority" bigint, "created_at" text NOT NULL, "updated_at" text NOT NULL, "deleted_at" text);
        CREATE TABLE "activity" ("id" text PRIMARY KEY, "description" text, "code" text, "item_id" text, "resource_type" text, "default_duration" bigint, "day_max_duration" bigint, "billable" boolean, "hourly_rate" double precision, "external_ref" text, "transaction" text, "archived_at" text, "created_at" text NOT NULL, "updated_at" text NOT NULL, "deleted_at" text);
        CREATE UNIQUE INDEX "activity_unique_external_ref" ON "activity" ("external_ref") WHERE "external_ref" IS NOT NULL;
        CREATE TABLE "resource" ("id" text PRIMARY KEY, "name" text, "type" text, "description" text, "start_date" text, "end_date" text, "avatar" text, "workdays" text, "workdays_start_date" text, "integration_schedule" boolean, "color_hex" text, "boards" text, "external_ref" text, "transaction" text, "archived_at" text, "created_at" text NOT NULL, "updated_at" text NOT NULL, "deleted_at" text);
        CREATE UNIQUE INDEX "resource_unique_external_ref" ON "resource" ("external_ref") WHERE "external_ref" IS NOT NULL;
        CREATE TABLE "schedule_deviation" ("id" text PRIMARY KEY, "resource_id" text, "description" text, "type" text, "start_date" text, "end_date" text, "time" bigint, "external_ref" text, "created_at" text NOT NULL, "updated_at" text NOT NULL, "deleted_at" text);
        CREATE UNIQUE INDEX "schedule_deviation_unique_external_ref" ON "schedule_deviation" ("external_ref") WHERE "external_ref" IS NOT NULL;
        CREATE TABLE "group" ("id" text PRIMARY KEY, "name" text, "created_at" text NOT NULL, "updated_at" text NOT NULL, "deleted_at" text);
        CREATE TABLE "group_resource" ("id" text PRIMARY KEY, "group_id" text, "resource_id" text, "created_at" text NOT NULL, "updated_at" text NOT NULL, "deleted_at" text);
        CREATE TABLE "user" ("id" text PRIMARY KEY, "email" text, "username" text, "firstname" text, "infix" text, "lastname" text, "fullname" text, "display_name" text, "gender" text, "mobile" text, "avatar" text, "avatar_checksum" text, "avatar_signature" text, "about" text, "date_of_birth" text, "role" text, "status" text, "card_visibility" text, "language" text, "timezone" text, "resource_id" text, "invite_id" text, "idp_id" text, "is_sso" boolean, "mfa_enabled" boolean, "notify_own_changes" boolean, "forgotten_timer_hours" bigint, "external_ref" text, "transaction" text, "archived_at" text, "created_at" text NOT NULL, "updated_at" text NOT NULL, "deleted_at" text);
        CREATE UNIQUE INDEX "user_unique_external_ref" ON "user" ("external_ref") WHERE "external_ref" IS NOT NULL;
        CREATE TABLE "space" ("id" text PRIMARY KEY, "name" text, "description" text, "created_at" text NOT NULL, "updated_at" text NOT NULL, "deleted_at" text);
        CREATE TABLE "collection" ("id" text PRIMARY KEY, "name" text, "description" text, "start" text, "end" text, "due_date" text, "meta" text, "position" bigint, "source_type" text, "status" text, "progress" text, "warnings" text, "custom_fields" text, "board_id" text, "cover_image_url" text, "cover_image_checksum" text, "cover_image_signature" text, "cover_image_bytes" bigint, "cover_color_hex" text, "external_ref" text, "batch_id" text, "plan_id" text, "created_at" text NOT NULL, "updated_at" text NOT NULL, "deleted_at" text);
        CREATE UNIQUE INDEX "collection_unique_external_ref" ON "collection" ("external_ref") WHERE "external_ref" IS NOT NULL;
        CREATE TABLE "collection_activity" ("id" text PRIMARY KEY, "collection_id" text, "activity_id" text, "time" bigint, "created_at" text NOT NULL, "updated_at" text NOT NULL, "deleted_at" text);
        CREATE TABLE "collection_label" ("id" text PRIMARY KEY, "collection_id" text, "label_id" text, "created_at" text NOT NULL, "updated_at" text NOT NULL, "deleted_at" text);
        CREATE TABLE "collection_follower" ("id" text PRIMARY KEY, "collection_id" text, "user_id" text, "created_at" text NOT NULL, "updated_at" text NOT NULL, "deleted_at" text);
        CREATE TABLE "card" ("id" text PRIMARY KEY, "collection_id" text, "board_id" text, "stage_id" text, "status_id" text, "name" text, "description" text, "start_date" text, "end_date" text, "start_time" text, "end_time" text, "rank" text, "position" bigint, "days_diff" bigint, "days_active" bigint, "locked" boolean, "custom_fields" text, "card_recurring_id" text, "parent_card_id" text, "split_from_id" text, "completed_at" text, "batch_id" text, "plan_id" text, "external_ref" text, "created_at" text NOT NULL, "updated_at" text NOT NULL, "deleted_at" text);
        CREATE UNIQUE INDEX "card_unique_external_ref" ON "card" ("external_ref") WHERE "external_ref" IS NOT NULL;
        CREATE TABLE "card_label" ("id" text PRIMARY KEY, "card_id" text, "label_id" text, "created_at" text NOT NULL, "updated_at" text NOT NULL, "deleted_at" text);
        CREATE TABLE "card_resource" ("id" text PRIMARY KEY, "card_id" text, "resource_id" text, "created_at" text NOT NULL, "updated_at" text NOT NULL, "deleted_at" text);
        CREATE TABLE "card_activity" ("id" text PRIMARY KEY, "card_id" text, "activity_id" text, "time" bigint, "created_at" text NOT NULL, "updated_at" text NOT NULL, "deleted_at" text);
        CREATE TABLE "card_relation" ("id" text PRIMARY KEY, "card_id" text, "related_card_id" text, "type" text, "created_at" text NOT NULL, "updated_at" text NOT NULL, "deleted_at" text);
        CREATE TABLE "checklist" ("id" text PRIMARY KEY, "collection_id" text, "card_id" text, "board_checklist_id" text, "name" text, "editable" boolean, "position" bigint, "external_ref" text, "created_at" text NOT NULL, "updated_at" text NOT NULL, "deleted_at" text);
        CREATE UNIQUE INDEX "checklist_unique_external_ref" ON "checklist" ("external_ref") WHERE "external_ref" IS NOT NULL;
        CREATE TABLE "checklist_item" ("id" text PRIMARY KEY, "checklist_id" text, "description" text, "position" bigint, "checked" boolean, "checked_at" text, "created_at" text NOT NULL, "updated_at" text NOT NULL, "deleted_at" text);
        CREATE TABLE "comment" ("id" text PRIMARY KEY, "collection_id" text, "card_id" text, "parent_id" text, "text" text, "user_id" text, "user_mentions" text, "created_at" text NOT NULL, "updated_at" text NOT NULL, "deleted_at" text);
        CREATE TABLE "attachment" ("id" text PRIMARY KEY, "collection_id" text, "card_id" text, "user_id" text, "filename" text, "file" text, "type" text, "content_type" text, "bytes" bigint, "checksum" text, "signature" text, "thumbnail" text, "thumbnail_bytes" bigint, "thumbnail_checksum" text, "thumbnail_signature" text, "thumbnail_type" text, "external_ref" text, "created_at" text NOT NULL, "updated_at" text NOT NULL, "deleted_at" text);
        CREATE UNIQUE INDEX "attachment_unique_external_ref" ON "attachment" ("external_ref") WHERE "external_ref" IS NOT NULL;
        CREATE TABLE "time_tracking" ("id" text PRIMARY KEY, "card_id" text, "activity_id" text, "user_id" text, "start" text, "end" text, "duration" bigint, "status" text, "locked" boolean, "running" boolean, "note" text, "synchronized_at" text, "external_ref" text, "external_note" text, "external_failed" boolean, "created_at" text NOT NULL, "updated_at" text NOT NULL, "deleted_at" text);
        CREATE UNIQUE INDEX "time_tracking_unique_external_ref" ON "time_tracking" ("external_ref") WHERE "external_ref" IS NOT NULL;
        CREATE TABLE "webhook" ("id" text PRIMARY KEY, "url" text, "description" text, "active" boolean, "event_types" text, "api_key_id" text, "developer_client_id" text, "third_party" boolean, "fail_streak" bigint, "fail_streak_started_at" text, "last_failed_at" text, "disabled_until" text, "created_at" text NOT NULL, "updated_at" text NOT NULL, "deleted_at" text);
        CREATE TABLE "webhook_delivery" ("id" text PRIMARY KEY, "webhook_id" text, "event_id" text, "event" text, "resource" text, "record_id" text, "status" text, "attempts" bigint, "response_code" bigint, "error" text, "duration_ms" bigint, "first_attempt_at" text, "last_attempt_at" text, "next_attempt_at" text, "delivered_at" text, "redelivery_of" text, "payload" text, "created_at" text NOT NULL, "updated_at" text NOT NULL, "deleted_at" text);
    `);
  },
};

/**
 * Environment migration 11: company holidays (SQLite environment migration 24), a holiday of
 * the company or of a group kept once instead of copied onto each resource (docs/API.md
 * "Absences and holidays").
 */
export const companyHolidayTableMigration: PostgresMigration = {
  version: 11,
  name: 'company-holidays',
  async up(client) {
    await client.query(`
        CREATE TABLE "company_holiday" ("id" text PRIMARY KEY, "description" text, "start_date" text, "end_date" text, "time" bigint, "group_id" text, "external_ref" text, "created_at" text NOT NULL, "updated_at" text NOT NULL, "deleted_at" text);
        CREATE UNIQUE INDEX "company_holiday_unique_external_ref" ON "company_holiday" ("external_ref") WHERE "external_ref" IS NOT NULL;
        CREATE INDEX "company_holiday_group" ON "company_holiday" ("group_id");
    `);
  },
};

/** The migrations that create record tables, in order: together they hold every declared resource's columns. */
export const recordTableMigrations: readonly PostgresMigration[] = [
  recordTablesMigration,
  companyHolidayTableMigration,
  orderRowScrappedMigration,
  exceptionHandlingTableMigration,
  hourCodesMigration,
  kpiSnapshotTableMigration,
  stageSetupMigration,
  closedPeriodTableMigration,
  notifiedExceptionsMigration,
  payrollFilesMigration,
  overtimeBalanceMigration,
  skillsAndCrewsMigration,
  secondShiftMigration,
  automationRulesMigration,
];
