/**
 * The filters above the order list: search on code and description, type, status, relation
 * and a date range on the order date or the promised date. They live in the screen's store,
 * so they are still set when the planner comes back from an order.
 */
import { Field } from '../../components/Field.js';
import { orderTypes } from '../../../shared/resources/order.js';
import { ChoiceSelect } from './ChoiceSelect.js';
import { noOrderFilters, type OrderDateField, type OrderType } from './order-list-query.js';
import { useRelationChoices } from './order-lookups.js';
import { useOrderScreen } from './order-screen-state.js';

export function OrderFilters() {
  const filters = useOrderScreen((state) => state.filters);
  const setFilter = useOrderScreen((state) => state.setFilter);
  const clearFilters = useOrderScreen((state) => state.clearFilters);
  const relations = useRelationChoices();
  const filtered = JSON.stringify(filters) !== JSON.stringify(noOrderFilters);

  return (
    <div role="search" className="order-filters" aria-label="Order filters">
      <Field label="Search code or description" className="order-filters__search">
        {(control) => (
          <input {...control} type="search" value={filters.search} autoComplete="off" onChange={(event) => setFilter('search', event.target.value)} />
        )}
      </Field>
      <Field label="Type filter">
        {(control) => (
          <select {...control} value={filters.type} onChange={(event) => setFilter('type', event.target.value as OrderType | '')}>
            <option value="">All types</option>
            {orderTypes.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Status filter">
        {(control) => (
          <input {...control} value={filters.status} autoComplete="off" placeholder="Any" onChange={(event) => setFilter('status', event.target.value)} />
        )}
      </Field>
      <Field label="Relation filter">
        {(control) => (
          <ChoiceSelect {...control} value={filters.relationId} list={relations} noneLabel="All relations" onChange={(id) => setFilter('relationId', id)} />
        )}
      </Field>
      <Field label="Dates by">
        {(control) => (
          <select {...control} value={filters.dateField} onChange={(event) => setFilter('dateField', event.target.value as OrderDateField)}>
            <option value="date">Order date</option>
            <option value="promised_date">Promised date</option>
          </select>
        )}
      </Field>
      <Field label="From">
        {(control) => <input {...control} type="date" value={filters.from} onChange={(event) => setFilter('from', event.target.value)} />}
      </Field>
      <Field label="To">
        {(control) => <input {...control} type="date" value={filters.to} onChange={(event) => setFilter('to', event.target.value)} />}
      </Field>
      <button type="button" className="button button--quiet order-filters__clear" disabled={!filtered} onClick={clearFilters}>
        Clear filters
      </button>
    </div>
  );
}
