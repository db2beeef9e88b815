import type { Migration } from '../../database.js';

/**
 * Card data: cards and their links to labels, resources and activities; collection labels and
 * followers; relations between cards; checklists with items; comments; attachments.
 */
export const cardData: Migration = {
  version: 5,
  name: 'card-data',
  up(db) {
    db.exec(`
      CREATE TABLE "card" (
        "id" TEXT PRIMARY KEY,
        "collection_id" TEXT,
        "board_id" TEXT,
        "stage_id" TEXT NOT NULL,
        "status_id" TEXT,
        "name" TEXT,
        "description" TEXT,
        "start_date" TEXT,
        "end_date" TEXT,
        "start_time" TEXT,
        "end_time" TEXT,
        "rank" TEXT,
        "position" INTEGER,
        "days_diff" INTEGER,
        "days_active" INTEGER,
        "locked" INTEGER,
        "custom_fields" TEXT,
        "card_recurring_id" TEXT,
        "parent_card_id" TEXT,
        "split_from_id" TEXT,
        "completed_at" TEXT,
        "batch_id" TEXT,
        "external_ref" TEXT,
        "created_at" TEXT NOT NULL,
        "updated_at" TEXT NOT NULL,
        "deleted_at" TEXT
      );
      CREATE TABLE "card_label" (
        "id" TEXT PRIMARY KEY,
        "card_id" TEXT NOT NULL,
        "label_id" TEXT NOT NULL,
        "created_at" TEXT NOT NULL,
        "updated_at" TEXT NOT NULL,
        "deleted_at" TEXT
      );
      CREATE TABLE "card_resource" (
        "id" TEXT PRIMARY KEY,
        "card_id" TEXT NOT NULL,
        "resource_id" TEXT NOT NULL,
        "created_at" TEXT NOT NULL,
        "updated_at" TEXT NOT NULL,
        "deleted_at" TEXT
      );
      CREATE TABLE "card_activity" (
        "id" TEXT PRIMARY KEY,
        "card_id" TEXT NOT NULL,
        "activity_id" TEXT NOT NULL,
        "time" INTEGER,
        "created_at" TEXT NOT NULL,
        "updated_at" TEXT NOT NULL,
        "deleted_at" TEXT
      );
      CREATE TABLE "collection_label" (
        "id" TEXT PRIMARY KEY,
        "collection_id" TEXT NOT NULL,
        "label_id" TEXT NOT NULL,
        "created_at" TEXT NOT NULL,
        "updated_at" TEXT NOT NULL,
        "deleted_at" TEXT
      );
      CREATE TABLE "collection_follower" (
        "id" TEXT PRIMARY KEY,
        "collection_id" TEXT NOT NULL,
        "user_id" TEXT NOT NULL,
        "created_at" TEXT NOT NULL,
        "updated_at" TEXT NOT NULL,
        "deleted_at" TEXT
      );
      CREATE TABLE "card_relation" (
        "id" TEXT PRIMARY KEY,
        "card_id" TEXT NOT NULL,
        "related_card_id" TEXT NOT NULL,
        "type" TEXT,
        "created_at" TEXT NOT NULL,
        "updated_at" TEXT NOT NULL,
        "deleted_at" TEXT
      );
      CREATE TABLE "checklist" (
        "id" TEXT PRIMARY KEY,
        "collection_id" TEXT,
        "card_id" TEXT,
        "board_checklist_id" TEXT,
        "name" TEXT,
        "editable" INTEGER,
        "position" INTEGER,
        "external_ref" TEXT,
        "created_at" TEXT NOT NULL,
        "updated_at" TEXT NOT NULL,
        "deleted_at" TEXT
      );
      CREATE TABLE "checklist_item" (
        "id" TEXT PRIMARY KEY,
        "checklist_id" TEXT,
        "description" TEXT NOT NULL,
        "position" INTEGER,
        "checked" INTEGER,
        "checked_at" TEXT,
        "created_at" TEXT NOT NULL,
        "updated_at" TEXT NOT NULL,
        "deleted_at" TEXT
      );
      CREATE TABLE "comment" (
        "id" TEXT PRIMARY KEY,
        "collection_id" TEXT,
        "card_id" TEXT,
        "parent_id" TEXT,
        "text" TEXT NOT NULL,
        "user_id" TEXT,
        "user_mentions" TEXT,
        "created_at" TEXT NOT NULL,
        "updated_at" TEXT NOT NULL,
        "deleted_at" TEXT
      );
      CREATE TABLE "attachment" (
        "id" TEXT PRIMARY KEY,
        "collection_id" TEXT,
        "card_id" TEXT,
        "user_id" TEXT,
        "filename" TEXT NOT NULL,
        "file" TEXT NOT NULL,
        "type" TEXT,
        "content_type" TEXT,
        "bytes" INTEGER,
        "checksum" TEXT,
        "signature" TEXT,
        "thumbnail" TEXT,
        "external_ref" TEXT,
        "created_at" TEXT NOT NULL,
        "updated_at" TEXT NOT NULL,
        "deleted_at" TEXT
      );
      CREATE INDEX card_collection ON "card"("collection_id");
      CREATE INDEX card_board_dates ON "card"("board_id", "start_date", "end_date");
      CREATE INDEX card_stage ON "card"("stage_id");
      CREATE INDEX card_label_card ON "card_label"("card_id");
      CREATE INDEX card_resource_card ON "card_resource"("card_id");
      CREATE INDEX card_resource_resource ON "card_resource"("resource_id");
      CREATE INDEX card_activity_card ON "card_activity"("card_id");
      CREATE INDEX collection_label_collection ON "collection_label"("collection_id");
      CREATE INDEX collection_follower_collection ON "collection_follower"("collection_id");
      CREATE INDEX card_relation_card ON "card_relation"("card_id");
      CREATE INDEX card_relation_related ON "card_relation"("related_card_id");
      CREATE INDEX checklist_collection ON "checklist"("collection_id");
      CREATE INDEX checklist_card ON "checklist"("card_id");
      CREATE INDEX checklist_item_checklist ON "checklist_item"("checklist_id");
      CREATE INDEX comment_collection ON "comment"("collection_id");
      CREATE INDEX attachment_collection ON "attachment"("collection_id");
      CREATE INDEX card_external_ref ON "card"("external_ref") WHERE "external_ref" IS NOT NULL;
      CREATE INDEX attachment_external_ref ON "attachment"("external_ref") WHERE "external_ref" IS NOT NULL;
    `);
  },
};
