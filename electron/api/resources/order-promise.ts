/**
 * The date first promised to the customer (docs/API.md "KPIs"): the first promised_date an
 * order gets is kept in first_promised_date, by the server, and never changed after, so that a
 * later promise does not hide a broken one. Clients cannot write it (it is read-only); a
 * replica's synced change may carry the one its own copy of this rule set, taken while the
 * order has none.
 */
export function keepFirstPromise(values: Record<string, unknown>, current: Record<string, unknown> | undefined): void {
  const kept = current?.first_promised_date;
  if (typeof kept === 'string') {
    delete values.first_promised_date;
    return;
  }
  if (typeof values.first_promised_date === 'string') return;
  delete values.first_promised_date;
  const promised = 'promised_date' in values ? values.promised_date : current?.promised_date;
  if (typeof promised === 'string') values.first_promised_date = promised;
}
