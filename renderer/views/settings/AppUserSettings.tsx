/**
 * Who you are here (docs/API.md "The app's user"): the user whose time the timer and the week
 * sheet book, the resource they are (whose schedule payroll expects of them), and when their
 * running timer counts as forgotten. Signed in to a remote with an
 * account, that account is the user; otherwise the planner chooses or creates it here.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { placeFieldErrors } from '../../api/client.js';
import { payrollKey, useList, useUpdate } from '../../api/hooks.js';
import { resourceListQuery } from '../../api/queries.js';
import { Field } from '../../components/Field.js';
import { useT } from '../../i18n/index.js';
import { AppUserForm } from '../app-user/AppUserForm.js';
import { useAppUser, userName } from '../app-user/app-user-api.js';
import type { Resource } from '../../../shared/resources/resource.js';
import type { User } from '../../../shared/resources/user.js';
import '../app-user/app-user.css';

export function AppUserSettings() {
  const t = useT();
  const appUser = useAppUser();
  const resources = useList('resource', resourceListQuery);
  const [changing, setChanging] = useState(false);
  const current = appUser.data;
  const user = current?.user ?? null;
  const resourceList = resources.data?.data ?? [];

  return (
    <section className="panel panel--stack settings-section" aria-labelledby="app-user-title">
      <h2 id="app-user-title" className="panel__title">
        {t('appUser.settingsTitle')}
      </h2>
      {!current ? (
        <p className="muted">{t('common.loading')}</p>
      ) : (
        <>
          {user ? (
            <dl className="settings-facts">
              <div>
                <dt>{t('appUser.name')}</dt>
                <dd data-testid="app-user-name">{userName(user)}</dd>
              </div>
              <div>
                <dt>{t('appUser.email')}</dt>
                <dd>{user.email}</dd>
              </div>
              {resourceList.length === 0 && (
                <div>
                  <dt>{t('appUser.resourceFact')}</dt>
                  <dd>{t('appUser.noResource')}</dd>
                </div>
              )}
              <div>
                <dt>{t('appUser.role')}</dt>
                <dd>{t(`appUser.role.${user.role}`)}</dd>
              </div>
            </dl>
          ) : (
            <p className="muted">{current.signed_in ? t('appUser.signedInArriving') : t('appUser.nobody')}</p>
          )}
          {current.signed_in ? (
            <p className="muted">{t('appUser.signedIn')}</p>
          ) : changing || !user ? (
            <AppUserForm currentId={current.user_id} onDone={() => setChanging(false)} />
          ) : (
            <div className="settings-actions">
              <button type="button" className="button" onClick={() => setChanging(true)}>
                {t('appUser.change')}
              </button>
            </div>
          )}
          {user && resourceList.length > 0 && <ResourceLink user={user} resources={resourceList} />}
          {user && <ForgottenTimerHours userId={user.id} hours={user.forgotten_timer_hours ?? 10} />}
        </>
      )}
    </section>
  );
}

/**
 * The resource the user is on the shop floor, at any time: its schedule is what payroll
 * expects of them (docs/API.md "Payroll summary"). On a first start there are no resources to
 * choose yet, so "Who are you?" cannot ask; this is where it is done once there are.
 */
function ResourceLink({ user, resources }: { user: User; resources: readonly Resource[] }) {
  const t = useT();
  const queryClient = useQueryClient();
  const update = useUpdate('user');
  const placed = placeFieldErrors(update.error, ['resource_id']);
  return (
    <Field label={t('appUser.linkResource')} error={placed.byInput.resource_id ?? placed.elsewhere[0]} className="settings-section__field">
      {(control) => (
        <>
          <select
            {...control}
            value={user.resource_id ?? ''}
            disabled={update.isPending}
            onChange={(event) =>
              update.mutate(
                { id: user.id, changes: { resource_id: event.target.value || null } },
                // The summary's expected hours follow the link at once, events or not.
                { onSuccess: () => queryClient.invalidateQueries({ queryKey: payrollKey }) },
              )
            }
          >
            <option value="">{t('appUser.noResource')}</option>
            {resources.map((resource) => (
              <option key={resource.id} value={resource.id}>
                {resource.name}
              </option>
            ))}
          </select>
          {update.isSuccess && (
            <span className="settings-section__saved" role="status">
              {t('appUser.linkSaved')}
            </span>
          )}
        </>
      )}
    </Field>
  );
}

/** After how many hours the user's running timer counts as forgotten (the API's flag). */
function ForgottenTimerHours({ userId, hours }: { userId: string; hours: number }) {
  const t = useT();
  const update = useUpdate('user');
  const [text, setText] = useState<string | null>(null);
  const placed = placeFieldErrors(update.error, ['forgotten_timer_hours']);
  function save() {
    // An empty box (or one the browser could not read as a number) puts the stored value back.
    if (text === null || text.trim() === '' || text.trim() === String(hours)) return setText(null);
    update.mutate({ id: userId, changes: { forgotten_timer_hours: Number(text) } }, { onSuccess: () => setText(null) });
  }
  return (
    <Field
      label={t('appUser.forgottenHours')}
      error={placed.byInput.forgotten_timer_hours ?? placed.elsewhere[0]}
      className="settings-section__field"
    >
      {(control) => (
        <input
          {...control}
          type="number"
          min={1}
          max={168}
          value={text ?? String(hours)}
          onChange={(event) => setText(event.target.value)}
          onBlur={save}
          onKeyDown={(event) => {
            if (event.key === 'Enter') save();
          }}
        />
      )}
    </Field>
  );
}
