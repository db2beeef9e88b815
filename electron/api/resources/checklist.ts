/**
 * Checklists with their items, on a collection (`/v1/collection/{cid}/checklist`) or on one of
 * its cards (`/v1/collection/{cid}/card/{card_id}/checklist`); items can be written inline or
 * at `/v1/collection/{cid}/checklist/{checklist_id}/item`. A checklist made from a board
 * template (`board_checklist_id`) gets the template's name and items unless it brings its own.
 */
import { nowTimestamp } from '../../../shared/ids.js';
import { checklistItemSpec, checklistSpec } from '../../../shared/resources/checklist.js';
import type { ResourceModule } from '../resource.js';
import { cardModule } from './card.js';
import { collectionModule } from './collection.js';
import { tables } from '../tables.js';

export const checklistItemModule: ResourceModule = {
  spec: checklistItemSpec,
  table: tables.checklist_item,
  path: '/collection/:collection_id/checklist/:checklist_id/item',
  parents: [
    { param: 'collection_id', field: 'collection_id', module: () => collectionModule, inherited: true },
    { param: 'checklist_id', field: 'checklist_id', module: () => checklistModule },
  ],
  rules: {
    // Remember when an item was ticked; unticking forgets it. Set before the write, so the
    // write (and its one change event and webhook) carries it.
    check(_ctx, _tx, values, current) {
      const checked = values.checked !== undefined ? values.checked : current?.checked;
      const checkedAt = values.checked_at !== undefined ? values.checked_at : current?.checked_at;
      if (checked && (!current?.checked || !checkedAt)) values.checked_at = nowTimestamp();
      else if (!checked && checkedAt) values.checked_at = null;
      return [];
    },
  },
};

const checklistRules: ResourceModule['rules'] = {
  async check(_ctx, tx, values, current) {
    const problems = [];
    const collectionId = values.collection_id ?? current?.collection_id;
    const cardId = values.card_id;
    if (typeof cardId === 'string') {
      const card = await tx.get(tables.card, cardId);
      if (card && collectionId && card.collection_id !== collectionId) {
        problems.push({ field: 'card_id', description: 'card_id must be a card of this collection' });
      }
    }
    const template =
      typeof values.board_checklist_id === 'string' ? await tx.get(tables.board_checklist, values.board_checklist_id) : undefined;
    if (!current && values.name === undefined) {
      if (template) values.name = template.name;
      else problems.push({ field: 'name', description: 'name is required unless board_checklist_id gives one' });
    }
    return problems;
  },
  async afterWrite(_ctx, tx, checklist, op, input) {
    if (op !== 'create' || typeof checklist.board_checklist_id !== 'string' || Array.isArray(input.items)) return;
    const template = await tx.get(tables.board_checklist, checklist.board_checklist_id);
    for (const [position, item] of (template?.items ?? []).entries())
      await tx.insert(tables.checklist_item, { checklist_id: checklist.id, description: item.description, position, checked: false });
  },
};

const checklistRelations: ResourceModule['relations'] = {
  items: { kind: 'hasMany', target: 'checklist_item', foreignKey: 'checklist_id', owned: true },
  card: { kind: 'belongsTo', target: 'card', foreignKey: 'card_id' },
  board_checklist: { kind: 'belongsTo', target: 'board_checklist', foreignKey: 'board_checklist_id' },
};

export const checklistModule: ResourceModule = {
  spec: checklistSpec,
  table: tables.checklist,
  path: '/collection/:collection_id/checklist',
  parents: [{ param: 'collection_id', field: 'collection_id', module: () => collectionModule }],
  relations: checklistRelations,
  rules: checklistRules,
};

/** The checklists of one card: the same records, scoped by the card as well. */
export const cardChecklistModule: ResourceModule = {
  ...checklistModule,
  path: '/collection/:collection_id/card/:card_id/checklist',
  parents: [
    { param: 'collection_id', field: 'collection_id', module: () => collectionModule },
    { param: 'card_id', field: 'card_id', module: () => cardModule },
  ],
};
