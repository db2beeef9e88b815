import type { Migration } from '../../database.js';

/** Reserved for another branch's migration (skills); a no-op until that branch is merged. */
export const reserved37: Migration = {
  version: 37,
  name: 'reserved',
  up() {},
};
