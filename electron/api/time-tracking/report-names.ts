/**
 * The names a time report or payroll summary prints (issue 17, "Exports name the user, the
 * period and the filters"): the card display name (shared/card-display-name.ts), who asked for
 * the export, and the filter in words, with the names of the records it names instead of
 * their ids (`user: Alice Andersen; status: approved`).
 */
import { cardDisplayNames } from '../../../shared/card-display-name.js';
import type { FilterNode } from '../../../shared/filter.js';
import { isUuid } from '../../../shared/ids.js';
import type { cardSpec } from '../../../shared/resources/card.js';
import type { userSpec } from '../../../shared/resources/user.js';
import type { StoredOf } from '../../../shared/fields.js';
import type { RequestContext } from '../resource.js';
import { tables } from '../tables.js';

/** A user as reports name them: full name, else display name, else e-mail. */
export function userName(user: Pick<StoredOf<typeof userSpec>, 'fullname' | 'display_name' | 'email'> | undefined): string {
  if (!user) return '';
  return (user.fullname || user.display_name || user.email || '').trim();
}

/** Who asked for the export: the signed-in user by name, else the API key (an integration or the desktop app). */
export async function exportedBy(ctx: RequestContext): Promise<string> {
  const { caller } = ctx;
  if (caller.userId) {
    const name = userName(await ctx.records.get(tables.user, caller.userId));
    if (name) return name;
  }
  return caller.kind === 'api-key' ? 'API key' : 'Unknown user';
}

/**
 * The display names of cards shown together in one report, by id: dates are added where two
 * cards would otherwise read the same (cardDisplayNames).
 */
export async function cardNames(ctx: RequestContext, cards: readonly StoredOf<typeof cardSpec>[]): Promise<Map<string, string>> {
  const collections = new Map(
    (await ctx.records.getWhereIn(tables.collection, 'id', [...new Set(cards.map((c) => c.collection_id))])).map((r) => [r.id, r]),
  );
  const stages = new Map(
    (await ctx.records.getWhereIn(tables.stage, 'id', [...new Set(cards.map((c) => c.stage_id))])).map((r) => [r.id, r]),
  );
  const names = cardDisplayNames(
    cards.map((card) => ({
      card,
      parts: {
        collection: collections.get(card.collection_id) ?? null,
        stage: stages.get(card.stage_id) ?? null,
      },
    })),
  );
  return new Map(cards.map((card, i) => [card.id, names[i]!]));
}

const operatorWords: Record<string, string> = {
  eq: '',
  gt: '>',
  gte: '≥',
  lt: '<',
  lte: '≤',
  has: 'has',
  contains: 'contains',
  starts_with: 'starts with',
  ends_with: 'ends with',
};

/** What a field is called in words: `user_id` → user, `card.collection_id` → card collection. */
function fieldWords(field: string): string {
  return field
    .replace(/_id$/, '')
    .replace(/\./g, ' ')
    .replace(/_id(?= |$)/g, '')
    .replace(/_/g, ' ');
}

/**
 * The filter in words, each id it names replaced by the name of the record (a user, card,
 * activity, collection or board): `user: Alice Andersen; status: not approved`. `none` without
 * a filter. Ids of nothing keep their id.
 */
export async function filterText(ctx: RequestContext, filter: FilterNode | undefined): Promise<string> {
  if (!filter) return 'none';
  const ids = new Set<string>();
  const collect = (node: FilterNode) => {
    if (node.kind === 'atom') {
      if (node.value !== null && isUuid(node.value)) ids.add(node.value.toLowerCase());
    } else node.items.forEach(collect);
  };
  collect(filter);
  const names = new Map<string, string>();
  if (ids.size > 0) {
    const wanted = [...ids];
    const { records } = ctx;
    for (const user of await records.getWhereIn(tables.user, 'id', wanted)) names.set(user.id, userName(user));
    const cards = await records.getWhereIn(tables.card, 'id', wanted);
    for (const [id, name] of await cardNames(ctx, cards)) names.set(id, name);
    for (const activity of await records.getWhereIn(tables.activity, 'id', wanted))
      names.set(activity.id, activity.description ?? activity.id);
    for (const collection of await records.getWhereIn(tables.collection, 'id', wanted))
      names.set(collection.id, collection.name || collection.id);
    for (const board of await records.getWhereIn(tables.board, 'id', wanted)) names.set(board.id, board.name || board.id);
  }
  const text = (node: FilterNode, top: boolean): string => {
    if (node.kind === 'atom') {
      const value = node.value === null ? 'none' : (names.get(node.value.toLowerCase()) ?? node.value);
      const operator = operatorWords[node.operator] ?? node.operator;
      return `${fieldWords(node.field)}:${node.not ? ' not' : ''}${operator ? ` ${operator}` : ''} ${value}`;
    }
    const joined = node.items.map((item) => text(item, false)).join(node.kind === 'and' ? '; ' : ' or ');
    return top || node.kind === 'and' ? joined : `(${joined})`;
  };
  return text(filter, true);
}

/** The one user a filter pins (`user_id:eq:…` at its top level), for the file name. */
export async function filteredUser(ctx: RequestContext, filter: FilterNode | undefined): Promise<StoredOf<typeof userSpec> | undefined> {
  if (!filter) return undefined;
  const atoms = filter.kind === 'and' ? filter.items : [filter];
  const pin = atoms.find((a) => a.kind === 'atom' && a.field === 'user_id' && a.operator === 'eq' && !a.not && a.value !== null);
  return pin && pin.kind === 'atom' && isUuid(pin.value) ? ctx.records.get(tables.user, pin.value.toLowerCase()) : undefined;
}
