/**
 * Cards, their links (labels, resources, activities with minutes) and relations between cards.
 * Cards live under their collection (`/v1/collection/{collection_id}/card`); `GET /v1/card`
 * lists every card across collections.
 */
import type { FieldProblem } from '../../../shared/errors.js';
import { cardActivitySpec, cardLabelSpec, cardRelationSpec, cardResourceSpec, cardSpec } from '../../../shared/resources/card.js';
import { cardFields, refreshCardFields } from '../planning/card-fields.js';
import { followDependencies } from '../planning/card-moves.js';
import { runAutomation } from '../planning/automation.js';
import { refreshCollection, recomputeCollection } from '../planning/collection-state.js';
import { checkSyncedCard, checkSyncedCardLink } from '../planning/one-plan.js';
import { cardTotals } from '../planning/card-totals.js';
import { defaultStatus } from '../planning/card-status.js';
import type { RequestContext, ResourceModule, ResourceRules } from '../resource.js';
import { collectionModule } from './collection.js';
import { tables } from '../tables.js';
import type { RecordWrites } from '../../store/record-store.js';

export const cardLabelModule: ResourceModule = {
  spec: cardLabelSpec,
  table: tables.card_label,
  rules: { checkSynced: checkSyncedCardLink },
};
export const cardResourceModule: ResourceModule = {
  spec: cardResourceSpec,
  table: tables.card_resource,
  rules: { checkSynced: checkSyncedCardLink },
};
export const cardActivityModule: ResourceModule = {
  spec: cardActivitySpec,
  table: tables.card_activity,
  // Read as a card's `time` records, which name their activity by id: `with=time.activity`.
  relations: { activity: { kind: 'belongsTo', target: 'activity', foreignKey: 'activity_id' } },
  rules: { checkSynced: checkSyncedCardLink },
};

/** The deprecated `date`, `start` and `end` still work: they set start_date and end_date. */
function mapDeprecatedDates(input: Record<string, unknown>): Record<string, unknown> {
  const out = { ...input };
  if (out.date !== undefined) {
    out.start_date ??= out.date;
    out.end_date ??= out.date;
  }
  if (out.start !== undefined) out.start_date ??= out.start;
  if (out.end !== undefined) out.end_date ??= out.end;
  return out;
}

/** The fields of a card whose change moves it on the planboard, which a locked card refuses. */
const moveFields = ['stage_id', 'start_date', 'end_date', 'start_time', 'end_time'] as const;

export const lockedCardMessage =
  'This card is locked: it has started, so it does not move until it goes back to an entry status (docs/API.md "Automation rules").';

async function checkCard(
  ctx: RequestContext,
  tx: RecordWrites,
  values: Record<string, unknown>,
  current: Record<string, unknown> | undefined,
  parent?: Record<string, unknown>,
): Promise<FieldProblem[]> {
  const problems: FieldProblem[] = [];
  // A locked card (an automation rule's lock) does not move; an undo that unlocks it may. Sync
  // applies what another node checked against its own records, field by field.
  const locked = values.locked ?? current?.locked;
  if (current && locked === true && ctx.origin !== 'sync') {
    for (const field of moveFields) {
      if (values[field] !== undefined && values[field] !== current[field]) problems.push({ field, description: lockedCardMessage });
    }
    if (problems.length > 0) return problems;
  }
  // The casts below: `values` passed field validation and `current` is a stored card, so a
  // field that is present has its declared type (a uuid or date string).
  const collectionId = (values.collection_id ?? current?.collection_id) as string | undefined;
  // Written inside its collection, the card checks against the collection being written.
  const collection = parent ?? (collectionId ? await tx.get(tables.collection, collectionId) : undefined);
  const stage = await tx.get(tables.stage, (values.stage_id ?? current?.stage_id) as string);
  if (stage && collection?.board_id && stage.board_id !== collection.board_id) {
    problems.push({ field: 'stage_id', description: "stage_id must be a stage of the collection's board" });
  }
  if (stage && values.status_id === undefined && !current) {
    const status = await defaultStatus(tx, stage.board_id);
    if (status) values.status_id = status.id;
    else problems.push({ field: 'status_id', description: 'the board has no statuses; add one before planning cards' });
  }
  // Validated or stored, as above.
  const statusId = (values.status_id ?? current?.status_id) as string | undefined;
  if (stage && statusId && values.status_id !== undefined) {
    const status = await tx.get(tables.status, statusId);
    if (status && status.board_id !== stage.board_id)
      problems.push({ field: 'status_id', description: "status_id must be a status of the card's board" });
  }
  // Validated or stored, as above: a date string or null.
  const start = (values.start_date !== undefined ? values.start_date : current?.start_date) as string | null | undefined;
  const end = (values.end_date !== undefined ? values.end_date : current?.end_date) as string | null | undefined;
  if (start && end && end < start)
    problems.push({ field: 'end_date', description: 'end_date may not be before start_date', rule: 'notBeforeStart' });
  // A new card is inserted with its server-owned fields (board, rank …), so its card.created
  // event and webhook carry them; afterWrite keeps them current on later writes.
  if (!current && problems.length === 0) Object.assign(values, await cardFields(tx, values));
  return problems;
}

export const cardRelationModule: ResourceModule = {
  spec: cardRelationSpec,
  table: tables.card_relation,
  path: '/card_relation',
  relations: {
    card: { kind: 'belongsTo', target: 'card', foreignKey: 'card_id' },
    related_card: { kind: 'belongsTo', target: 'card', foreignKey: 'related_card_id' },
  },
  rules: {
    async check(_ctx, tx, values, current) {
      const card = values.card_id ?? current?.card_id;
      const related = values.related_card_id ?? current?.related_card_id;
      if (typeof card !== 'string' || typeof related !== 'string') return [];
      if (card === related) return [{ field: 'related_card_id', description: 'a card cannot be related to itself' }];
      const same = (await tx.getWhereIn(tables.card_relation, 'card_id', [card])).some(
        (r) => r.id !== current?.id && r.related_card_id === related && r.type === (values.type ?? current?.type),
      );
      return same ? [{ field: 'related_card_id', description: 'these cards already have this relation' }] : [];
    },
  },
};

export const cardModule: ResourceModule = {
  spec: cardSpec,
  table: tables.card,
  path: '/collection/:collection_id/card',
  parents: [{ param: 'collection_id', field: 'collection_id', module: () => collectionModule }],
  relations: {
    activities: {
      kind: 'manyToMany',
      target: 'activity',
      link: 'card_activity',
      ownerKey: 'card_id',
      targetKey: 'activity_id',
      pivot: ['time'],
    },
    labels: { kind: 'manyToMany', target: 'label', link: 'card_label', ownerKey: 'card_id', targetKey: 'label_id' },
    resources: {
      kind: 'manyToMany',
      target: 'resource',
      link: 'card_resource',
      ownerKey: 'card_id',
      targetKey: 'resource_id',
    },
    collection: { kind: 'belongsTo', target: 'collection', foreignKey: 'collection_id' },
    stage: { kind: 'belongsTo', target: 'stage', foreignKey: 'stage_id' },
    status: { kind: 'belongsTo', target: 'status', foreignKey: 'status_id' },
    relations: { kind: 'hasMany', target: 'card_relation', foreignKey: 'card_id' },
    // Owned: a card's checklists go when the card goes.
    checklists: { kind: 'hasMany', target: 'checklist', foreignKey: 'card_id', owned: true },
    parent_card: { kind: 'belongsTo', target: 'card', foreignKey: 'parent_card_id' },
    time_tracking: { kind: 'hasMany', target: 'time_tracking', foreignKey: 'card_id' },
    // The minutes planned per activity as records of their own ({activity_id, time}): the same
    // links `activities` reads, merged into the activities there.
    time: { kind: 'hasMany', target: 'card_activity', foreignKey: 'card_id' },
  },
  rules: {
    includes: ['time_tracking_total', 'resource_type_count', 'resource_type_time'],
    prepareInput: mapDeprecatedDates,
    check: checkCard,
    async afterWrite(ctx, tx, written, op, _input, previous) {
      const card = await refreshCardFields(tx, written);
      // refreshCardFields sets the server-owned planning fields, never the card's collection.
      const collection = await tx.get(tables.collection, written.collection_id);
      if (collection && !collection.board_id && typeof card.board_id === 'string') {
        await tx.update(tables.collection, collection.id, { board_id: card.board_id });
      }
      if (op === 'update' && previous) {
        await runAutomation(ctx, tx, card, previous);
        if (ctx.cardMoves) ctx.cardMoves.push({ card, previous });
        else await followDependencies(tx, card, previous);
      }
      await recomputeCollection(tx, written.collection_id);
    },
    afterDelete: (ctx, tx, card) => refreshCollection(ctx, tx, card.collection_id),
    afterRestore: (ctx, tx, card) => refreshCollection(ctx, tx, card.collection_id),
    present: cardTotals,
    checkSynced: checkSyncedCard,
    // The collection's summary is the remote's to say, from the cards it has (replicas apart may
    // have summed up cards the remote refused or never saw).
    afterSynced: (ctx, tx, card) => refreshCollection(ctx, tx, card.collection_id),
  } satisfies ResourceRules<typeof cardSpec>,
};

/** `GET /v1/card`: every card, across collections, with the same conventions. */
export const allCardsModule: ResourceModule = {
  ...cardModule,
  path: '/card',
  parents: [],
  without: ['create', 'get', 'update', 'delete'],
};
