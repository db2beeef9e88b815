/**
 * Who is qualified for cards (docs/API.md "Skills and crews"): each card's skills and crew from
 * its activities, the people of its stage who have them, and the assigned people who lack one.
 * Worked out on every read, so a skill given to or taken from a person shows at once.
 */
import { cardNeeds, missingSkills, type CardSkills } from '../../../shared/skills.js';
import type { RecordReads } from '../../store/record-store.js';
import { tables, type Stored } from '../tables.js';
import { resourcesOnBoard } from './stage-workdays.js';
import { readActivityNeeds, qualifiedPeople } from './skill-candidates.js';
import { countsFor } from './who-does-it.js';

/** The skills of `cards` (all on one board or several), in the order given. */
export async function cardSkills(reads: RecordReads, cards: readonly Stored<'card'>[]): Promise<CardSkills[]> {
  if (cards.length === 0) return [];
  const ids = cards.map((c) => c.id);
  const activityLinks = await reads.getWhereIn(tables.card_activity, 'card_id', ids);
  const needs = await readActivityNeeds(
    reads,
    activityLinks.map((l) => l.activity_id),
  );
  const resourceLinks = await reads.getWhereIn(tables.card_resource, 'card_id', ids);
  const boards = [...new Set(cards.map((c) => c.board_id).filter((id): id is string => typeof id === 'string'))];
  const people = new Map<string, Stored<'resource'>>();
  for (const boardId of boards) for (const r of await resourcesOnBoard(reads, boardId)) people.set(r.id, r);
  const elsewhere = [...new Set(resourceLinks.map((l) => l.resource_id))].filter((id) => !people.has(id));
  if (elsewhere.length > 0) for (const r of await reads.getWhereIn(tables.resource, 'id', elsewhere)) people.set(r.id, r);
  const byName = [...people.values()].sort((a, b) => a.name.localeCompare(b.name) || (a.id < b.id ? -1 : 1));

  return cards.map((card) => {
    const need = cardNeeds(
      activityLinks.filter((l) => l.card_id === card.id).map((l) => l.activity_id),
      needs,
    );
    const onStage = byName
      .filter((r) => r.archived_at === null && typeof card.board_id === 'string' && countsFor(r, card.board_id, card.stage_id))
      .map((r) => ({ id: r.id, name: r.name, skills: r.skills ?? [] }));
    const assigned = resourceLinks
      .filter((l) => l.card_id === card.id)
      .flatMap((l) => {
        const person = people.get(l.resource_id);
        return person ? [person] : [];
      });
    return {
      card_id: card.id,
      stage_id: card.stage_id,
      skills: need.skills,
      crew: need.crew,
      qualified: qualifiedPeople(onStage, need).map((p) => ({ id: p.id, name: p.name })),
      unqualified: assigned
        .map((p) => ({ id: p.id, name: p.name, missing: missingSkills(p.skills, need.skills) }))
        .filter((p) => p.missing.length > 0),
      unstaffed: need.skills.length > 0 && assigned.length === 0,
    };
  });
}
