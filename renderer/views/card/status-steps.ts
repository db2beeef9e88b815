/**
 * Stepping a card through its board's statuses: the statuses in priority order (0 first,
 * ties in creation order), where the card stands among them, and the ones before and after.
 * A card in an exit status is done. A card whose status is not on the board (none, or one
 * deleted since) stands before the first, so "next" offers the first status.
 */
import type { Status } from '../../../shared/resources/board.js';

export type StepStatus = Pick<Status, 'id' | 'name' | 'priority' | 'exit'>;

export interface StatusSteps<S extends StepStatus = StepStatus> {
  ordered: S[];
  current: S | null;
  /** Position of the current status in `ordered`; -1 when the card has none of them. */
  index: number;
  previous: S | null;
  next: S | null;
  done: boolean;
}

export function statusSteps<S extends StepStatus>(statuses: readonly S[], currentId: string | null): StatusSteps<S> {
  const ordered = statuses
    .map((status, order) => ({ status, order }))
    .sort((a, b) => a.status.priority - b.status.priority || a.order - b.order)
    .map(({ status }) => status);
  const index = currentId === null ? -1 : ordered.findIndex((status) => status.id === currentId);
  const current = index >= 0 ? ordered[index]! : null;
  return {
    ordered,
    current,
    index,
    previous: index > 0 ? ordered[index - 1]! : null,
    next: ordered[index + 1] ?? null,
    done: current?.exit ?? false,
  };
}
