import type { Migration } from '../../database.js';

/**
 * A resource's second shift (docs/API.md "Schedules and capacity", docs/decisions/shifts.md):
 * hours per weekday on top of its workdays; null, one shift, for the resources there are.
 */
export const secondShift: Migration = {
  version: 38,
  name: 'second-shift',
  up(db) {
    db.exec(`ALTER TABLE "resource" ADD COLUMN "second_shift" TEXT;`);
  },
};
