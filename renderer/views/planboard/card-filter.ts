/**
 * The planboard's filters: which cards show. Within labels, resources or statuses any chosen
 * one matches (a card with Rush or Paint); across them all must (Rush and Anna). Text matches
 * the card's name or its collection's name, ignoring case. The same shape is saved in a board
 * view's `filters`, so a saved view reads back exactly.
 */
import type { PlanCard } from './plan-card.js';

export interface CardFilters {
  labels: string[];
  resources: string[];
  statuses: string[];
  text: string;
}

export const noFilters: CardFilters = { labels: [], resources: [], statuses: [], text: '' };

export function isFiltering(filters: CardFilters): boolean {
  return filters.labels.length > 0 || filters.resources.length > 0 || filters.statuses.length > 0 || filters.text.trim() !== '';
}

/** A predicate for the filters; null when they let every card through (the common case, kept cheap). */
export function cardMatcher(filters: CardFilters): ((card: PlanCard) => boolean) | null {
  if (!isFiltering(filters)) return null;
  const labels = new Set(filters.labels);
  const resources = new Set(filters.resources);
  const statuses = new Set(filters.statuses);
  const text = filters.text.trim().toLowerCase();
  return (card) =>
    (labels.size === 0 || card.labels.some((label) => labels.has(label.id))) &&
    (resources.size === 0 || card.resources.some((resource) => resources.has(resource.id))) &&
    (statuses.size === 0 || (card.status_id !== null && statuses.has(card.status_id))) &&
    (text === '' || (card.name ?? '').toLowerCase().includes(text) || (card.collection?.name ?? '').toLowerCase().includes(text));
}

/** Filters from a saved board view; anything malformed counts as "no filter" for that part. */
export function filtersFromView(value: unknown): CardFilters {
  const saved = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const ids = (list: unknown) => (Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : []);
  return {
    labels: ids(saved.labels),
    resources: ids(saved.resources),
    statuses: ids(saved.statuses),
    text: typeof saved.text === 'string' ? saved.text : '',
  };
}
