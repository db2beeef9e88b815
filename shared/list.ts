/** The list envelope every index endpoint returns (docs/API.md "Lists"). */
export interface ListEnvelope<T> {
  /** Total number of matching records, not the page size. */
  count: number;
  limit: number;
  offset: number;
  data: T[];
}

export const defaultLimit = 100;
export const maxLimit = 1000;
