/**
 * When a collection is late: its end (planned, or a promise date) falls after the day it is due
 * (its due date, or the date promised to the customer). One rule for the collection's warnings
 * (electron/api/planning/collection-state.ts), the exception inbox and the app's late orders.
 */

/** Whether an end falls after a due day; never without both. */
export function endsLate(end: string | null | undefined, due: string | null | undefined): boolean {
  return Boolean(end && due && end > due);
}
