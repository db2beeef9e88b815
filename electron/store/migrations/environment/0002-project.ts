import type { Migration } from '../../database.js';

export const project: Migration = {
  version: 2,
  name: 'project',
  up(db) {
    db.exec(`
      CREATE TABLE project (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        description TEXT,
        code TEXT,
        "transaction" TEXT,
        external_ref TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        deleted_at TEXT
      );
      CREATE INDEX project_external_ref ON project(external_ref) WHERE external_ref IS NOT NULL;
    `);
  },
};
