/**
 * The card's own fields as its form edits them: every input holds text, and only what the
 * planner changed is sent, so a field someone else changed meanwhile is not written back with
 * what the panel loaded earlier. Blank clears an optional field (null).
 */
import type { Card } from '../../../shared/resources/card.js';

export const cardFormFields = ['name', 'description', 'stage_id', 'start_date', 'end_date', 'start_time', 'end_time'] as const;
export type CardFormField = (typeof cardFormFields)[number];

export type CardDraft = Record<CardFormField, string>;

export type CardFields = Pick<Card, CardFormField>;

export function cardDraft(card: CardFields): CardDraft {
  return {
    name: card.name ?? '',
    description: card.description ?? '',
    stage_id: card.stage_id,
    start_date: card.start_date ?? '',
    end_date: card.end_date ?? '',
    start_time: card.start_time ?? '',
    end_time: card.end_time ?? '',
  };
}

/** The body of a PUT for what differs from the card: null for a cleared field. */
export function cardChanges(card: CardFields, edits: Partial<CardDraft>): Partial<Record<CardFormField, string | null>> {
  const before = cardDraft(card);
  const changes: Partial<Record<CardFormField, string | null>> = {};
  for (const field of cardFormFields) {
    const text = edits[field];
    if (text === undefined || text === before[field]) continue;
    // A description keeps its own spacing; a name or a date does not.
    const value = field === 'description' ? (text.trim() ? text : null) : text.trim() || null;
    changes[field] = value;
  }
  return changes;
}
