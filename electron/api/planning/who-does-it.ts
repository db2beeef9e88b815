/**
 * Who does a planned card (docs/API.md "Planning", "Who does the work"): when a plan names no
 * resources, planning assigns the people whose capacity it counted, so the planboard by
 * resource shows the same work as the planboard by stage. The choice is made here, and only
 * here, so that what else decides it (skills, crews) has one place to join.
 *
 * The candidates of a stage are the resources active on the board and on the stage with a
 * share of it (their capacity is the stage's). Each has free minutes per day: what its schedule
 * gives (the person once; company holidays and absences taken off) less its share of the
 * board's cards assigned to it (schedule.ts, finite-plan.ts). A card's minutes are shared
 * equally among its resources, as capacity counts them, so n people doing M minutes a day need
 * M / n each on every day of the card.
 *
 *  - Finite: the fewest candidates that have that much free on every day of the card, the most
 *    free first (by their free minutes over the card's days). A finite plan places a card only
 *    where such a set could exist on each day (teamRoom), so nobody goes over; only when the
 *    people with room differ from day to day does the card get, instead, the most free
 *    candidates whose free minutes together cover it.
 *  - Infinite: the same choice without the check: when nobody has the room, the most free
 *    candidates that cover it together, else the one most free, so successive cards spread over
 *    the people by their free time.
 *
 * Skills and crews (docs/API.md "Skills and crews"): the candidates of a card are only the
 * stage's people with every skill its activities name (skill-candidates.ts), and a card with a
 * crew of c gets at least c of them, at once: every count n above starts at c.
 *
 * Resources the planner gave in the plan request, or that "Replan late…" kept from the old
 * cards, are not chosen here: they win.
 */
import type { Stored } from '../tables.js';

/** A resource planning may give a card, with its free minutes per day of the plan's horizon. */
export interface Candidate {
  id: string;
  name: string;
  free: Float64Array;
}

/** Minutes below this count as none, so sums of fractions never tip a day over. */
const epsilon = 1e-6;

/** Whether the resource's capacity counts for the stage: active on the board and the stage, with a share of it. */
export function countsFor(resource: Stored<'resource'>, boardId: string, stageId: string): boolean {
  const entry = resource.boards.find((b) => b.id === boardId);
  if (!entry || !entry.active) return false;
  const link = entry.stages.find((s) => s.id === stageId && s.active);
  return link !== undefined && link.percentage > 0;
}

/**
 * The most minutes one set of at least `crew` candidates takes on horizon day `day` in equal
 * shares: over every n from `crew`, n × the n-th largest free (0 with fewer than `crew`). A
 * finite plan's card adds no more than this on a day.
 */
export function teamRoom(candidates: readonly Candidate[], day: number, crew = 1): number {
  const free = candidates.map((c) => c.free[day]!).sort((a, b) => b - a);
  let best = 0;
  for (let n = crew; n <= free.length; n++) best = Math.max(best, n * free[n - 1]!);
  return best;
}

/**
 * The resources that do a card of `perDay` minutes on each of `days` (horizon days), by the
 * rules in the file head; none when the stage has no candidates.
 */
export function chooseResources(
  candidates: readonly Candidate[],
  days: readonly number[],
  perDay: number,
  mode: 'finite' | 'infinite',
  /** At least this many people at once (the card's crew). */
  crew = 1,
): string[] {
  if (candidates.length === 0 || days.length === 0) return [];
  const total = (c: Candidate) => days.reduce((sum, day) => sum + c.free[day]!, 0);
  const least = (c: Candidate) => days.reduce((min, day) => Math.min(min, c.free[day]!), Infinity);
  const ranked = candidates
    .map((candidate) => ({ candidate, total: total(candidate), least: least(candidate) }))
    .sort((a, b) => b.total - a.total || a.candidate.name.localeCompare(b.candidate.name) || (a.candidate.id < b.candidate.id ? -1 : 1));
  for (let n = crew; n <= ranked.length; n++) {
    const able = ranked.filter((r) => r.least >= perDay / n - epsilon);
    if (able.length >= n) return able.slice(0, n).map((r) => r.candidate.id);
  }
  // No set has room on every day: the most free whose room together covers the card.
  let covered = 0;
  const chosen: string[] = [];
  for (const r of ranked) {
    if (r.least <= epsilon) break;
    chosen.push(r.candidate.id);
    covered += r.least;
    if (covered >= perDay - epsilon && chosen.length >= crew) return chosen;
  }
  if (mode === 'finite' && chosen.length >= crew) return chosen;
  // Infinite: the crew's most free, however little they have.
  return ranked.slice(0, Math.max(1, crew)).map((r) => r.candidate.id);
}
