/**
 * The records an order points at (relation, project, warehouse, address) and an order row
 * points at (item, activity), listed for the pickers. Like the other base data they are short
 * enough to fetch as one page of the largest size; a picker says so if a list is cut off.
 */
import type { ListQuery } from '../../api/client.js';
import { useList } from '../../api/hooks.js';
import { activityListQuery } from '../../api/queries.js';
import { useT, type Translate } from '../../i18n/index.js';
import type { Address } from '../../../shared/resources/address.js';
import { maxLimit } from '../../../shared/list.js';

export const relationListQuery: ListQuery = { sort: 'name:asc', limit: maxLimit };
export const projectListQuery: ListQuery = { sort: 'name:asc', limit: maxLimit };
export const warehouseListQuery: ListQuery = { sort: 'name:asc', limit: maxLimit };
export const addressListQuery: ListQuery = { sort: 'name:asc', limit: maxLimit };
export const itemListQuery: ListQuery = { sort: 'description:asc', limit: maxLimit };

export interface Choice {
  id: string;
  name: string;
}

export interface ChoiceList {
  choices: Choice[];
  /** More records exist than the picker lists. */
  cutOff: boolean;
}

function choiceList<T>(page: { count: number; data: T[] } | undefined, name: (record: T & { id: string }) => string): ChoiceList {
  const data = (page?.data ?? []) as (T & { id: string })[];
  return { choices: data.map((record) => ({ id: record.id, name: name(record) })), cutOff: (page?.count ?? 0) > data.length };
}

/** An address on one line, as the order's collection shows it. */
export function addressLine(address: Pick<Address, 'name' | 'street1' | 'postal_code' | 'city'>, t: Translate): string {
  return (
    [address.name, address.street1, [address.postal_code, address.city].filter(Boolean).join(' ')].filter(Boolean).join(', ') ||
    t('orders.collection.noName')
  );
}

function withCode(name: string, code: string | null | undefined): string {
  return code ? `${name} (${code})` : name;
}

/** What the order header picks from. */
export function useHeaderChoices() {
  const t = useT();
  const relations = useList('relation', relationListQuery);
  const projects = useList('project', projectListQuery);
  const warehouses = useList('warehouse', warehouseListQuery);
  const addresses = useList('address', addressListQuery);
  return {
    relation_id: choiceList(relations.data, (relation) => relation.name),
    project_id: choiceList(projects.data, (project) => withCode(project.name, project.code)),
    warehouse_id: choiceList(warehouses.data, (warehouse) => withCode(warehouse.name, warehouse.code)),
    address_id: choiceList(addresses.data, (address) => addressLine(address, t)),
  };
}

export type HeaderChoices = ReturnType<typeof useHeaderChoices>;

/** What an order row picks from, with codes for matching pasted cells. */
export function useRowChoices() {
  const items = useList('item', itemListQuery);
  const activities = useList('activity', activityListQuery);
  return {
    items: items.data?.data ?? [],
    activities: activities.data?.data ?? [],
    item_id: choiceList(items.data, (item) => withCode(item.description, item.code)),
    activity_id: choiceList(activities.data, (activity) => withCode(activity.description, activity.code)),
  };
}

export type RowChoices = ReturnType<typeof useRowChoices>;

/** The relation filter of the list picks from the same list as the header. */
export function useRelationChoices(): ChoiceList {
  return choiceList(useList('relation', relationListQuery).data, (relation) => relation.name);
}
