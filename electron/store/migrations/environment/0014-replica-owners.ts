import type { Migration } from '../../database.js';

/**
 * A replica's push bookkeeping belongs to the credential that registered it (docs/API.md
 * "Sync", "Replica ids"):
 *  - `owner`: `key:<api key id>` or `user:<user id>:<oauth client id>`. A push under a replica
 *    id that another credential registered is refused with 403. Rows from before this
 *    migration have none and are claimed by the first push that names them;
 *  - `last_batch`: for each mutation of the last push, its content hash and outcome, so a
 *    resent batch is answered from here and a mutation id reused for other content is not
 *    mistaken for one the remote already applied.
 */
export const replicaOwners: Migration = {
  version: 14,
  name: 'replica-owners',
  up(db) {
    db.exec(`
      ALTER TABLE "sync_client" ADD COLUMN "owner" TEXT;
      ALTER TABLE "sync_client" ADD COLUMN "last_batch" TEXT;
    `);
  },
};
