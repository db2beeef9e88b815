import type { Migration } from '../../database.js';

/** Reserved for another branch's migration (shifts); a no-op until that branch is merged. */
export const reserved38: Migration = {
  version: 38,
  name: 'reserved',
  up() {},
};
