/** A list query the store cannot run as asked (unknown field, bad value); the API answers 400. */
export class QueryError extends Error {}

/** A uniqueness rule would be broken (duplicate `external_ref`); the API answers 422. */
export class DuplicateError extends Error {
  constructor(readonly field: string) {
    super('Duplicate entry');
  }
}
