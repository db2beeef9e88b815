/**
 * Cards of one stage that overlap in time cannot share a line, so a stage row holds them in
 * lanes: each card goes into the first lane that is free on its first day. Pure, and
 * deterministic for the same input, so lanes do not shuffle between renders.
 */

export interface LaneSpan {
  id: string;
  /** First day number (inclusive). */
  first: number;
  /** Last day number (inclusive). */
  last: number;
}

export interface LanePacking {
  /** Card id → lane (0 is the top lane). */
  laneOf: Map<string, number>;
  /** Lanes the row needs; 0 when it has no cards. */
  laneCount: number;
}

/**
 * First-fit packing in start order. Spans that start on the same day keep the order they
 * were given in (the caller sorts by the board's rank), so a planner's order within a day
 * shows top to bottom.
 */
export function packLanes(spans: readonly LaneSpan[]): LanePacking {
  // The board layout hands them over in start order already: then no second sort (stable, so
  // equal starts keep their order either way).
  let inOrder = true;
  for (let i = 1; i < spans.length && inOrder; i++) inOrder = spans[i - 1]!.first <= spans[i]!.first;
  const order = inOrder ? spans : [...spans].sort((a, b) => a.first - b.first);
  /** Last day taken in each lane so far. */
  const laneEnds: number[] = [];
  const laneOf = new Map<string, number>();
  for (const span of order) {
    const last = Math.max(span.first, span.last);
    let lane = laneEnds.findIndex((end) => end < span.first);
    if (lane === -1) {
      lane = laneEnds.length;
      laneEnds.push(last);
    } else {
      laneEnds[lane] = last;
    }
    laneOf.set(span.id, lane);
  }
  return { laneOf, laneCount: laneEnds.length };
}
