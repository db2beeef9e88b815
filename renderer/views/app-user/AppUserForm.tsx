/**
 * Choosing who the planner is: one of the users already here (their team's, arrived by sync)
 * or a new one made from their name and e-mail, with the resource they are when they work on
 * the shop floor themselves (when there are resources yet; Settings links one later). One call (`PUT /v1/app_user`) makes and chooses it; the API's
 * problems show beside the fields they are about.
 */
import { useState, type FormEvent } from 'react';
import { placeFieldErrors } from '../../api/client.js';
import { useList } from '../../api/hooks.js';
import { resourceListQuery } from '../../api/queries.js';
import { Field } from '../../components/Field.js';
import { useT } from '../../i18n/index.js';
import { useBookableUsers } from '../time/BookFor.js';
import { useChooseAppUser, userName, type AppUserChoice } from './app-user-api.js';

const inputs = ['user_id', 'user.firstname', 'user.lastname', 'user.email', 'user.resource_id'] as const;

export function AppUserForm({ currentId, onDone }: { currentId: string | null; onDone?(): void }) {
  const t = useT();
  const users = useBookableUsers();
  const resources = useList('resource', resourceListQuery);
  const resourceList = resources.data?.data ?? [];
  const choose = useChooseAppUser();
  const live = (users.data?.data ?? []).filter((user) => !user.archived_at);
  const [mode, setMode] = useState<'existing' | 'new' | null>(null);
  const shown = mode ?? (live.length > 0 ? 'existing' : 'new');
  const [userId, setUserId] = useState(currentId ?? '');
  const [firstname, setFirstname] = useState('');
  const [lastname, setLastname] = useState('');
  const [email, setEmail] = useState('');
  const [resourceId, setResourceId] = useState('');
  const placed = placeFieldErrors(choose.error, inputs);

  function submit(event: FormEvent) {
    event.preventDefault();
    const choice: AppUserChoice =
      shown === 'existing'
        ? { user_id: userId || (live[0]?.id ?? null) }
        : {
            user: {
              firstname: firstname.trim(),
              ...(lastname.trim() ? { lastname: lastname.trim() } : {}),
              email: email.trim(),
              ...(resourceId ? { resource_id: resourceId } : {}),
            },
          };
    choose.mutate(choice, { onSuccess: () => onDone?.() });
  }

  return (
    <form className="app-user-form" onSubmit={submit}>
      {live.length > 0 && (
        <div className="settings-choices" role="radiogroup" aria-label={t('appUser.how')}>
          <label className="settings-choice">
            <input type="radio" name="app-user-mode" checked={shown === 'existing'} onChange={() => setMode('existing')} />
            {t('appUser.existing')}
          </label>
          <label className="settings-choice">
            <input type="radio" name="app-user-mode" checked={shown === 'new'} onChange={() => setMode('new')} />
            {t('appUser.new')}
          </label>
        </div>
      )}
      {shown === 'existing' ? (
        <Field label={t('appUser.whichUser')} error={placed.byInput.user_id} className="app-user-form__field">
          {(control) => (
            <select {...control} value={userId || (live[0]?.id ?? '')} onChange={(event) => setUserId(event.target.value)}>
              {live.map((user) => (
                <option key={user.id} value={user.id}>
                  {[userName(user), user.fullname ? user.email : null, user.resource?.name].filter(Boolean).join(' · ')}
                </option>
              ))}
            </select>
          )}
        </Field>
      ) : (
        <div className="app-user-form__fields">
          <Field label={t('appUser.firstname')} error={placed.byInput['user.firstname']}>
            {(control) => (
              <input
                {...control}
                required
                autoComplete="given-name"
                value={firstname}
                onChange={(event) => setFirstname(event.target.value)}
              />
            )}
          </Field>
          <Field label={t('appUser.lastname')} error={placed.byInput['user.lastname']}>
            {(control) => (
              <input {...control} autoComplete="family-name" value={lastname} onChange={(event) => setLastname(event.target.value)} />
            )}
          </Field>
          <Field label={t('appUser.email')} error={placed.byInput['user.email']}>
            {(control) => (
              <input
                {...control}
                type="email"
                required
                autoComplete="email"
                value={email}
                onChange={(event) => setEmail(event.target.value)}
              />
            )}
          </Field>
          {resourceList.length > 0 ? (
            <Field label={t('appUser.resource')} error={placed.byInput['user.resource_id']}>
              {(control) => (
                <select {...control} value={resourceId} onChange={(event) => setResourceId(event.target.value)}>
                  <option value="">{t('appUser.noResource')}</option>
                  {resourceList.map((resource) => (
                    <option key={resource.id} value={resource.id}>
                      {resource.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          ) : (
            // A first start has no resources yet: a choice of only "None" says nothing.
            <p className="muted app-user-form__later">{t('appUser.noResourcesYet')}</p>
          )}
        </div>
      )}
      {placed.elsewhere.map((message) => (
        <p key={message} className="form-error" role="alert">
          {message}
        </p>
      ))}
      <div className="settings-actions">
        <button type="submit" className="button button--primary" disabled={choose.isPending || (shown === 'existing' && live.length === 0)}>
          {shown === 'existing' ? t('appUser.thatsMe') : t('appUser.create')}
        </button>
      </div>
    </form>
  );
}
