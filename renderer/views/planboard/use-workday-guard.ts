/**
 * Moves from the grid (drag and keyboard) pass here before they become a command: a move that
 * lands a card's start or end on a day the board does not work is refused with a message in
 * the planner's words, unless it is overridden (Shift held while dropping, or the message's
 * "Move anyway"). The API itself lets a card sit on any date (docs/API.md "Cards on
 * non-workdays"), so the question is the planboard's to ask.
 */
import { useCallback } from 'react';
import { useT } from '../../i18n/index.js';
import { useNotices } from '../../state/notices.js';
import { longDate, type Workdays } from './date-geometry.js';
import { nonWorkdayLanding, type StageDays } from './non-workdays.js';
import type { CardMove, PlanboardActions } from './use-planboard-actions.js';

/**
 * Answers whether the moves went ahead (false: refused, and the planner was told why). `act`
 * is what they go ahead as: by default moving the cards; on the planboard by resource a drop on
 * another person's row gives the card to them as well.
 */
export type GuardedMove = (moves: readonly CardMove[], anyDay?: boolean, act?: () => Promise<void>) => boolean;

/** `stageDays`: the days a stage works that the board does not: a move onto one is its stage's to make. */
export function useWorkdayGuard(actions: PlanboardActions, workdays: Workdays, stageDays?: StageDays): GuardedMove {
  const t = useT();
  const notify = useNotices((state) => state.notify);
  return useCallback<GuardedMove>(
    (moves, anyDay = false, act = () => actions.moveCards(moves)) => {
      const landing = anyDay ? undefined : nonWorkdayLanding(moves, workdays, stageDays);
      if (!landing) {
        void act();
        return true;
      }
      notify(t('workload.nonWorkday.refused', { date: longDate(landing.date, t) }), 'error', {
        label: t('workload.nonWorkday.moveAnyway'),
        run: () => void act(),
      });
      return false;
    },
    [actions, workdays, stageDays, notify, t],
  );
}
