/**
 * The first thing the app asks while it does not know its user: who are you? Time booked with
 * the timer and the week sheet goes on that name, so payroll knows whose hours they are
 * (issue 17). It stands above the screen rather than over it: the planner may look around
 * first and answer later ("Later" asks again at the next start); Settings changes the answer.
 * Signed in to a remote with an account, that account is the user and nothing is asked.
 */
import { useState } from 'react';
import { useT } from '../../i18n/index.js';
import { AppUserForm } from './AppUserForm.js';
import { useAppUser } from './app-user-api.js';
import './app-user.css';

export function WhoAreYou() {
  const t = useT();
  const appUser = useAppUser();
  const [later, setLater] = useState(false);
  if (later || !appUser.data || appUser.data.user_id !== null || appUser.data.signed_in) return null;
  return (
    <section className="who-are-you" aria-labelledby="who-are-you-title">
      <div className="who-are-you__head">
        <h2 id="who-are-you-title" className="who-are-you__title">
          {t('appUser.askTitle')}
        </h2>
        <button type="button" className="button button--quiet" onClick={() => setLater(true)}>
          {t('appUser.later')}
        </button>
      </div>
      <p className="muted">{t('appUser.askWhy')}</p>
      <AppUserForm currentId={null} />
    </section>
  );
}
