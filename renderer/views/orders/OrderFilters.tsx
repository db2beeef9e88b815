/**
 * The filters above the order list: search on code and description, type, status, relation
 * and a date range on the order date or the promised date. They live in the screen's store,
 * so they are still set when the planner comes back from an order.
 */
import { Field } from '../../components/Field.js';
import { useT } from '../../i18n/index.js';
import { orderTypes } from '../../../shared/resources/order.js';
import { ChoiceSelect } from './ChoiceSelect.js';
import { noOrderFilters, type OrderDateField, type OrderType } from './order-list-query.js';
import { useRelationChoices } from './order-lookups.js';
import { useOrderScreen } from './order-screen-state.js';

export function OrderFilters() {
  const t = useT();
  const filters = useOrderScreen((state) => state.filters);
  const setFilter = useOrderScreen((state) => state.setFilter);
  const clearFilters = useOrderScreen((state) => state.clearFilters);
  const relations = useRelationChoices();
  const filtered = JSON.stringify(filters) !== JSON.stringify(noOrderFilters);

  return (
    <div role="search" className="order-filters" aria-label={t('orders.filters')}>
      <Field label={t('orders.filter.search')} className="order-filters__search">
        {(control) => (
          <input
            {...control}
            type="search"
            value={filters.search}
            autoComplete="off"
            onChange={(event) => setFilter('search', event.target.value)}
          />
        )}
      </Field>
      <Field label={t('orders.filter.type')}>
        {(control) => (
          <select {...control} value={filters.type} onChange={(event) => setFilter('type', event.target.value as OrderType | '')}>
            <option value="">{t('orders.filter.allTypes')}</option>
            {orderTypes.map((type) => (
              <option key={type} value={type}>
                {t(`orders.type.${type}`)}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label={t('orders.filter.status')}>
        {(control) => (
          <input
            {...control}
            value={filters.status}
            autoComplete="off"
            placeholder={t('orders.filter.anyStatus')}
            onChange={(event) => setFilter('status', event.target.value)}
          />
        )}
      </Field>
      <Field label={t('orders.filter.relation')}>
        {(control) => (
          <ChoiceSelect
            {...control}
            value={filters.relationId}
            list={relations}
            noneLabel={t('orders.filter.allRelations')}
            onChange={(id) => setFilter('relationId', id)}
          />
        )}
      </Field>
      <Field label={t('orders.filter.datesBy')}>
        {(control) => (
          <select {...control} value={filters.dateField} onChange={(event) => setFilter('dateField', event.target.value as OrderDateField)}>
            <option value="date">{t('orders.field.date')}</option>
            <option value="promised_date">{t('orders.field.promised_date')}</option>
          </select>
        )}
      </Field>
      <Field label={t('filters.from')}>
        {(control) => <input {...control} type="date" value={filters.from} onChange={(event) => setFilter('from', event.target.value)} />}
      </Field>
      <Field label={t('filters.to')}>
        {(control) => <input {...control} type="date" value={filters.to} onChange={(event) => setFilter('to', event.target.value)} />}
      </Field>
      <button type="button" className="button button--quiet order-filters__clear" disabled={!filtered} onClick={clearFilters}>
        {t('filters.clear')}
      </button>
    </div>
  );
}
