import type { Migration } from '../../database.js';

/**
 * The last card of a stage, by rank (docs/architecture.md "Planning rules"): planning puts each
 * new card after it, so every plan asks for the highest rank among a stage's live cards. With
 * the index on stage alone SQLite read every card of the stage for that, which grew with the
 * board; an index on (stage_id, rank) over live cards answers it with one step.
 */
export const cardsByStageRank: Migration = {
  version: 22,
  name: 'cards-by-stage-rank',
  up(db) {
    db.exec(`CREATE INDEX card_stage_rank ON "card"("stage_id", "rank") WHERE "deleted_at" IS NULL;`);
  },
};
