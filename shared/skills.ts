/**
 * Skills and crews (docs/API.md "Skills and crews"), as pure rules the API and the renderer
 * share: what a skill's name may be, what a card needs (the skills and the crew of its
 * activities), and who is qualified for it.
 */

/** Most characters of a skill's name. */
export const skillMaxLength = 50;

/**
 * A skill's name: no comma (a list of them travels comma-separated in a query) and no space at
 * either end (" welding" and "welding" would look one and be two).
 */
export const skillPattern = '^[^,\\s](?:[^,]*[^,\\s])?$';

/** Most skills one resource has. */
export const maxSkills = 100;

/** Most people one activity's crew has. */
export const maxCrew = 50;

const skillExpression = new RegExp(skillPattern);

/** Problem with a resource's `skills` (a list of skill names, each once), or null. */
export function checkSkills(value: unknown): string | null {
  const skills = value as unknown[]; // the field's shape (an array) is checked before this
  if (skills.length > maxSkills) return `may hold at most ${maxSkills} skills`;
  for (const skill of skills) {
    if (typeof skill !== 'string' || skill.length === 0 || skill.length > skillMaxLength || !skillExpression.test(skill)) {
      return `each skill must be a name of 1 to ${skillMaxLength} characters, without commas or spaces at either end`;
    }
  }
  if (new Set(skills).size !== skills.length) return 'each skill may be named once';
  return null;
}

/** What one activity asks of the people who do it. */
export interface ActivityNeed {
  skill: string | null;
  crew: number;
}

/** What a card asks of its people: every skill of its activities, and the largest of their crews (at least 1). */
export interface CardNeeds {
  skills: string[];
  crew: number;
}

/** A card's needs from its activities' (by id; an activity not found asks nothing). */
export function cardNeeds(activityIds: Iterable<string>, needs: ReadonlyMap<string, ActivityNeed>): CardNeeds {
  const skills = new Set<string>();
  let crew = 1;
  for (const id of activityIds) {
    const need = needs.get(id);
    if (!need) continue;
    if (need.skill !== null) skills.add(need.skill);
    crew = Math.max(crew, need.crew);
  }
  return { skills: [...skills].sort(), crew };
}

/** The skills of `needed` that a resource with `skills` lacks (none: it is qualified). */
export function missingSkills(skills: readonly string[] | null | undefined, needed: readonly string[]): string[] {
  return needed.filter((skill) => !(skills ?? []).includes(skill));
}

/** Most cards one read of GET /v1/skills names in `card_ids`. */
export const maxSkillCards = 200;

/** A person as GET /v1/skills names them. */
export interface SkilledPerson {
  id: string;
  name: string;
}

/**
 * A card's people as GET /v1/skills reads them (docs/API.md "Skills and crews"): what it
 * needs, who of its stage is qualified, and which assigned people lack a skill.
 */
export interface CardSkills {
  card_id: string;
  stage_id: string;
  skills: string[];
  crew: number;
  /** The stage's people (those planning may choose) with every skill, by name. */
  qualified: SkilledPerson[];
  /** Assigned people who lack a skill the card needs, with the skills they lack. */
  unqualified: (SkilledPerson & { missing: string[] })[];
  /** The card needs a skill and nobody is assigned. */
  unstaffed: boolean;
}

/** Whether the board warns on the card: someone assigned lacks a skill, or it needs one and has nobody. */
export function hasSkillWarning(card: Pick<CardSkills, 'unqualified' | 'unstaffed'>): boolean {
  return card.unqualified.length > 0 || card.unstaffed;
}
