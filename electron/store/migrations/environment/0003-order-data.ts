import type { Migration } from '../../database.js';

/**
 * Order data (address, item, relation, warehouse, order, order_row and the supply link between
 * rows), plus the activity and collection tables that orders feed: an order creates its
 * collection with the activities its rows need.
 */
export const orderData: Migration = {
  version: 3,
  name: 'order-data',
  up(db) {
    db.exec(`
      CREATE TABLE "address" (
        "id" TEXT PRIMARY KEY,
        "name" TEXT,
        "street1" TEXT,
        "street2" TEXT,
        "postal_code" TEXT,
        "city" TEXT,
        "country" TEXT,
        "latitude" REAL,
        "longitude" REAL,
        "relation_id" TEXT,
        "external_ref" TEXT,
        "created_at" TEXT NOT NULL,
        "updated_at" TEXT NOT NULL,
        "deleted_at" TEXT
      );
      CREATE TABLE "item" (
        "id" TEXT PRIMARY KEY,
        "description" TEXT NOT NULL,
        "code" TEXT,
        "type" TEXT,
        "stockmanagement" INTEGER,
        "unit" TEXT,
        "note" TEXT,
        "location" TEXT,
        "external_ref" TEXT,
        "created_at" TEXT NOT NULL,
        "updated_at" TEXT NOT NULL,
        "deleted_at" TEXT
      );
      CREATE TABLE "relation" (
        "id" TEXT PRIMARY KEY,
        "name" TEXT NOT NULL,
        "type" TEXT,
        "description" TEXT,
        "email" TEXT,
        "phone" TEXT,
        "fax" TEXT,
        "website" TEXT,
        "note" TEXT,
        "external_ref" TEXT,
        "created_at" TEXT NOT NULL,
        "updated_at" TEXT NOT NULL,
        "deleted_at" TEXT
      );
      CREATE TABLE "warehouse" (
        "id" TEXT PRIMARY KEY,
        "name" TEXT NOT NULL,
        "code" TEXT,
        "external_ref" TEXT,
        "created_at" TEXT NOT NULL,
        "updated_at" TEXT NOT NULL,
        "deleted_at" TEXT
      );
      CREATE TABLE "activity" (
        "id" TEXT PRIMARY KEY,
        "description" TEXT NOT NULL,
        "code" TEXT,
        "item_id" TEXT,
        "resource_type" TEXT,
        "default_duration" INTEGER,
        "day_max_duration" INTEGER,
        "billable" INTEGER,
        "hourly_rate" REAL,
        "external_ref" TEXT,
        "transaction" TEXT,
        "archived_at" TEXT,
        "created_at" TEXT NOT NULL,
        "updated_at" TEXT NOT NULL,
        "deleted_at" TEXT
      );
      CREATE TABLE "collection" (
        "id" TEXT PRIMARY KEY,
        "name" TEXT,
        "description" TEXT,
        "start" TEXT,
        "end" TEXT,
        "due_date" TEXT,
        "meta" TEXT,
        "position" INTEGER,
        "source_type" TEXT,
        "status" TEXT,
        "progress" TEXT,
        "warnings" TEXT,
        "custom_fields" TEXT,
        "board_id" TEXT,
        "cover_image_url" TEXT,
        "cover_image_checksum" TEXT,
        "cover_image_signature" TEXT,
        "cover_image_bytes" INTEGER,
        "cover_color_hex" TEXT,
        "external_ref" TEXT,
        "batch_id" TEXT,
        "created_at" TEXT NOT NULL,
        "updated_at" TEXT NOT NULL,
        "deleted_at" TEXT
      );
      CREATE TABLE "collection_activity" (
        "id" TEXT PRIMARY KEY,
        "collection_id" TEXT NOT NULL,
        "activity_id" TEXT NOT NULL,
        "time" INTEGER,
        "created_at" TEXT NOT NULL,
        "updated_at" TEXT NOT NULL,
        "deleted_at" TEXT
      );
      CREATE TABLE "order" (
        "id" TEXT PRIMARY KEY,
        "project_id" TEXT,
        "warehouse_id" TEXT,
        "relation_id" TEXT,
        "item_id" TEXT,
        "address_id" TEXT,
        "collection_id" TEXT,
        "meta" TEXT,
        "transaction" TEXT,
        "code" TEXT,
        "type" TEXT,
        "sub_type" TEXT,
        "status" TEXT,
        "note" TEXT,
        "description" TEXT,
        "contact" TEXT,
        "date" TEXT,
        "promised_date" TEXT,
        "desired_date" TEXT,
        "delivered_date" TEXT,
        "quantity" REAL,
        "relation_ref" TEXT,
        "external_ref" TEXT,
        "external_url" TEXT,
        "created_at" TEXT NOT NULL,
        "updated_at" TEXT NOT NULL,
        "deleted_at" TEXT
      );
      CREATE TABLE "order_row" (
        "id" TEXT PRIMARY KEY,
        "order_id" TEXT,
        "code" TEXT,
        "description" TEXT,
        "item_id" TEXT,
        "activity_id" TEXT,
        "transaction" TEXT,
        "position" INTEGER,
        "type" TEXT,
        "unit" TEXT,
        "item_code" TEXT,
        "reserved" REAL,
        "quantity" REAL,
        "quantity_delivered" REAL,
        "quantity_backorder" REAL,
        "quantity_original" REAL,
        "status" TEXT,
        "delivered_date" TEXT,
        "resource_ref" TEXT,
        "external_ref" TEXT,
        "created_at" TEXT NOT NULL,
        "updated_at" TEXT NOT NULL,
        "deleted_at" TEXT
      );
      CREATE TABLE "order_row_supply" (
        "id" TEXT PRIMARY KEY,
        "supplier_row_id" TEXT NOT NULL,
        "receiver_row_id" TEXT NOT NULL,
        "supplier_order_id" TEXT,
        "created_at" TEXT NOT NULL,
        "updated_at" TEXT NOT NULL,
        "deleted_at" TEXT
      );
      CREATE INDEX order_row_order ON "order_row"("order_id");
      CREATE INDEX order_collection ON "order"("collection_id");
      CREATE INDEX collection_activity_collection ON "collection_activity"("collection_id");
      CREATE INDEX order_row_supply_supplier ON "order_row_supply"("supplier_row_id");
      CREATE INDEX order_row_supply_receiver ON "order_row_supply"("receiver_row_id");
      CREATE INDEX order_row_supply_supplier_order ON "order_row_supply"("supplier_order_id");
      CREATE INDEX collection_board ON "collection"("board_id");
      CREATE INDEX address_external_ref ON "address"("external_ref") WHERE "external_ref" IS NOT NULL;
      CREATE INDEX item_external_ref ON "item"("external_ref") WHERE "external_ref" IS NOT NULL;
      CREATE INDEX relation_external_ref ON "relation"("external_ref") WHERE "external_ref" IS NOT NULL;
      CREATE INDEX warehouse_external_ref ON "warehouse"("external_ref") WHERE "external_ref" IS NOT NULL;
      CREATE INDEX activity_external_ref ON "activity"("external_ref") WHERE "external_ref" IS NOT NULL;
      CREATE INDEX collection_external_ref ON "collection"("external_ref") WHERE "external_ref" IS NOT NULL;
      CREATE INDEX order_external_ref ON "order"("external_ref", "type", "sub_type") WHERE "external_ref" IS NOT NULL;
      CREATE INDEX order_row_external_ref ON "order_row"("external_ref") WHERE "external_ref" IS NOT NULL;
    `);
  },
};
