import { customFieldValues } from '../custom-fields.js';
import {
  defineResource,
  externalRefField,
  idField,
  jsonField,
  limits,
  nestedList,
  timestampField,
  type FieldSpec,
  type InputOf,
  type RecordOf,
} from '../fields.js';

/**
 * A piece of a collection planned on one stage over a span of days (docs/API.md "Resources and paths").
 * Cards are made by planning a collection, or written through their collection.
 */
/** Who last booked time on a card, and when (docs/API.md "The floor": the board shows it). */
export interface CardTimeTrackingLast {
  user_id: string | null;
  user_name: string | null;
  start: string;
  end: string | null;
}

export const cardSpec = defineResource({
  name: 'card',
  title: 'Card',
  fields: {
    id: idField,
    collection_id: { type: 'uuid', readOnly: true, description: 'Set from the path.' },
    board_id: { type: 'uuid', readOnly: true, description: 'The board of its stage.' },
    stage_id: { type: 'uuid', required: true, references: 'stage' },
    status_id: { type: 'uuid', references: 'status', description: "Defaults to the board's entry status." },
    name: { type: 'string', nullable: true, maxLength: 255 },
    description: { type: 'string', nullable: true, maxLength: 65535 },
    start_date: { type: 'date', nullable: true },
    end_date: { type: 'date', nullable: true },
    start_time: { type: 'time', nullable: true },
    end_time: { type: 'time', nullable: true },
    date: { type: 'date', nullable: true, virtual: true, writeOnly: true, description: 'Deprecated: sets start_date and end_date.' },
    start: { type: 'date', nullable: true, virtual: true, writeOnly: true, description: 'Deprecated: use start_date.' },
    end: { type: 'date', nullable: true, virtual: true, writeOnly: true, description: 'Deprecated: use end_date.' },
    rank: { type: 'string', readOnly: true, description: 'Lexicographic order of cards within a stage.' },
    position: {
      type: 'integer',
      nullable: true,
      readOnly: true,
      description: 'Always null: cards are ordered by rank (docs/API.md "Planning").',
    },
    days_diff: { type: 'integer', nullable: true, readOnly: true, description: 'Calendar days from start to end.' },
    days_active: { type: 'integer', nullable: true, readOnly: true, description: 'Board workdays from start to end.' },
    locked: { type: 'boolean', readOnly: true, default: false },
    time_tracking_running: { type: 'boolean', readOnly: true, virtual: true },
    time_tracking_last: jsonField<CardTimeTrackingLast | null>()({
      type: 'json',
      shape: 'object',
      nullable: true,
      readOnly: true,
      virtual: true,
      description:
        "Ours: the card's latest time entry, {user_id, user_name, start, end} (end null while it runs), or null: who started it and when.",
    }),
    custom_fields: customFieldValues('card'),
    card_recurring_id: { type: 'uuid', nullable: true },
    parent_card_id: { type: 'uuid', nullable: true, references: 'card' },
    split_from_id: { type: 'uuid', nullable: true, readOnly: true, description: 'The card this one was split from.' },
    completed_at: { type: 'datetime', nullable: true, readOnly: true, description: 'When it reached an exit status.' },
    batch_id: { type: 'string', nullable: true, maxLength: 36 },
    plan_id: {
      type: 'uuid',
      nullable: true,
      readOnly: true,
      description: 'The plan it belongs to: the planning that made it (or the card it was split from); null for a card added by hand.',
    },
    external_ref: externalRefField,
    labels: nestedList('Labels as [{id}].'),
    resources: nestedList('Assigned resources as [{id}].'),
    activities: nestedList('Work on this card as [{id, time}], time in minutes.'),
    created_at: timestampField,
    updated_at: timestampField,
  },
});
export type Card = RecordOf<typeof cardSpec>;
export type CardInput = InputOf<typeof cardSpec>;

const linkKey = { type: 'uuid', required: true } as const satisfies FieldSpec;

function link<const O extends string, const T extends string, const E extends Record<string, FieldSpec>>(
  name: string,
  title: string,
  owner: O,
  target: T,
  extra: E,
) {
  // Keys computed from the names lose them in the type; the link's two keys are named here instead.
  const keys = { [owner]: linkKey, [target]: linkKey } as Record<O | T, typeof linkKey>;
  return defineResource({
    name,
    title,
    fields: {
      id: idField,
      ...keys,
      ...extra,
      created_at: timestampField,
      updated_at: timestampField,
    },
  });
}

/** Links of cards and collections to labels, resources, activities and followers. */
export const cardLabelSpec = link('card_label', 'CardLabel', 'card_id', 'label_id', {});
export const cardResourceSpec = link('card_resource', 'CardResource', 'card_id', 'resource_id', {});
export const cardActivitySpec = link('card_activity', 'CardActivity', 'card_id', 'activity_id', {
  time: { type: 'integer', minimum: 0, maximum: limits.minutes, default: 0, description: 'Minutes.' },
});
export const collectionLabelSpec = link('collection_label', 'CollectionLabel', 'collection_id', 'label_id', {});
export const collectionFollowerSpec = link('collection_follower', 'CollectionFollower', 'collection_id', 'user_id', {});

export const cardRelationTypes = ['blocks', 'depends', 'related', 'cloned'] as const;

/** A typed link between two cards (`GET /v1/card_relation?filter=card_id:eq:…`). */
export const cardRelationSpec = defineResource({
  name: 'card_relation',
  title: 'CardRelation',
  fields: {
    id: idField,
    // A relation names two cards; when either goes, so does the relation.
    card_id: { type: 'uuid', required: true, references: 'card', onDelete: 'cascade' },
    related_card_id: { type: 'uuid', required: true, references: 'card', onDelete: 'cascade' },
    type: { type: 'enum', enum: cardRelationTypes, default: 'related' },
    created_at: timestampField,
    updated_at: timestampField,
  },
});
export type CardRelation = RecordOf<typeof cardRelationSpec>;
