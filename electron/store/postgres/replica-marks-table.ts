/**
 * The remote's push bookkeeping in an environment's schema on PostgreSQL (docs/architecture.md
 * "Team server on PostgreSQL", "Races between nodes"): one row per replica id, as SQLite's
 * `sync_client` (environment/0006-sync, 0014-replica-owners). Frozen history like every
 * migration.
 *
 *  - `owner`: the credential that registered the replica id (`key:<id>` or
 *    `user:<id>:<client>`); null only for a row copied from a SQLite remote of before owners,
 *    claimed by the first push that names it;
 *  - `last_mutation_id`: the mark, the highest mutation id applied or refused on its merits;
 *  - `last_batch`: the last push's mutations by id, each with its content hash and outcome, so
 *    the replica's own batch sent again is answered again and nothing else is.
 *
 * A mark never moves backwards: push-marks.ts never asks it to, and a trigger refuses an
 * update that would, whatever code runs it.
 */
import type { PostgresMigration } from './postgres-database.js';

export const replicaMarksMigration: PostgresMigration = {
  version: 5,
  name: 'replica-marks',
  async up(client) {
    await client.query(`
      CREATE TABLE replica_mark (
        replica_id text PRIMARY KEY,
        owner text,
        last_mutation_id bigint NOT NULL DEFAULT 0 CHECK (last_mutation_id >= 0),
        last_batch jsonb NOT NULL DEFAULT '{}'::jsonb,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE FUNCTION replica_mark_forward() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.last_mutation_id < OLD.last_mutation_id THEN
          RAISE EXCEPTION 'the mark of replica % would move back from % to %',
            OLD.replica_id, OLD.last_mutation_id, NEW.last_mutation_id
            USING ERRCODE = 'check_violation';
        END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER replica_mark_forward BEFORE UPDATE ON replica_mark
        FOR EACH ROW EXECUTE FUNCTION replica_mark_forward();
    `);
  },
};
