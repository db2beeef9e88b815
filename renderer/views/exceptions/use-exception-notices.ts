/**
 * Desktop notifications for new exceptions (docs/API.md "Notifications"), for the app's user,
 * of the kinds they chose in Settings (their user record's `notify_exceptions`). The inbox's
 * list refreshes after every write and every sync; the notice waits until it has been still
 * for `settleMs`, so the refreshes of one sync make one notice. A click on it opens the
 * Exceptions screen.
 */
import { useEffect } from 'react';
import { useT } from '../../i18n/index.js';
import { useUiStore } from '../../state/ui.js';
import { useAppUser } from '../app-user/app-user-api.js';
import { exceptionText } from './ExceptionsView.js';
import { exceptionsNoticeTag, newExceptionsNotice, notifiedKinds, recallTold, rememberTold } from './exception-notices.js';
import { useExceptions } from './exceptions-api.js';
import { notifier } from './notifier.js';

/** How long the list must stay unchanged before it is told: a sync's refreshes come closer together. */
export const settleMs = 1_500;

export function useExceptionNotices(): void {
  const t = useT();
  const list = useExceptions();
  const appUser = useAppUser();
  const showView = useUiStore((state) => state.showView);
  const user = appUser.data?.user ?? null;
  const userId = user?.id;
  const kinds = notifiedKinds(user).join(',');

  useEffect(
    () =>
      notifier().onClick((tag) => {
        if (tag === exceptionsNoticeTag) showView('exceptions');
      }),
    [showView],
  );

  const items = list.data?.data;
  useEffect(() => {
    if (!items || !userId) return;
    const timer = setTimeout(() => {
      const told = recallTold(userId);
      rememberTold(
        userId,
        items.map((item) => item.key),
      );
      const chosen = kinds ? kinds.split(',') : [];
      const notice = told ? newExceptionsNotice(items, chosen, told, t, (item) => exceptionText(item, t)) : null;
      const target = notifier();
      if (notice && target.permission() === 'granted') void target.show(notice).catch(() => undefined);
    }, settleMs);
    return () => clearTimeout(timer);
  }, [items, userId, kinds, t]);
}
