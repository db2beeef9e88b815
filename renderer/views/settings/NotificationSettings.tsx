/**
 * Which new exceptions the app's user is told about (docs/API.md "Notifications"): a checkbox
 * per kind of the inbox, saved on their user record (`notify_exceptions`), so the choice goes
 * with them to every computer. In the browser the page must be allowed to notify first; the
 * desktop app shows the computer's own notifications and needs nothing more.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { exceptionKinds, type ExceptionKind } from '../../../shared/exceptions.js';
import { send } from '../../api/client.js';
import { apiPath } from '../../api/paths.js';
import { useApi } from '../../api/provider.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { CheckboxField } from '../../components/Field.js';
import { useT } from '../../i18n/index.js';
import { appUserKey, useAppUser } from '../app-user/app-user-api.js';
import { notifiedKinds } from '../exceptions/exception-notices.js';
import { notifier, type NoticePermission } from '../exceptions/notifier.js';

export function NotificationSettings() {
  const t = useT();
  const { transport } = useApi();
  const queryClient = useQueryClient();
  const appUser = useAppUser();
  const user = appUser.data?.user ?? null;
  // What the planner just ticked shows at once, while it is saved; the record's own after that.
  const [ticked, setTicked] = useState<ExceptionKind[] | null>(null);
  const chosen = ticked ?? notifiedKinds(user);
  const target = notifier();
  const [permission, setPermission] = useState<NoticePermission>(() => target.permission());
  const save = useMutation({
    mutationFn: (kinds: ExceptionKind[]) =>
      send(transport, { method: 'PUT', path: apiPath`/v1/user/${user!.id}`, body: { notify_exceptions: kinds } }),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: appUserKey });
      setTicked(null);
    },
  });

  function toggle(kind: ExceptionKind, on: boolean) {
    const next = exceptionKinds.filter((k) => (k === kind ? on : chosen.includes(k)));
    setTicked(next);
    save.mutate(next);
  }

  return (
    <section className="panel panel--stack settings-section" aria-labelledby="notices-title">
      <h2 id="notices-title" className="panel__title">
        {t('notices.title')}
      </h2>
      <p className="muted">{t('notices.intro')}</p>
      {!user ? (
        <p className="muted">{t('notices.noUser')}</p>
      ) : (
        <>
          <fieldset className="settings-choices">
            <legend className="visually-hidden">{t('notices.title')}</legend>
            {exceptionKinds.map((kind) => (
              <CheckboxField
                key={kind}
                label={t(`exceptions.kind.${kind}`)}
                checked={chosen.includes(kind)}
                onChange={(on) => toggle(kind, on)}
              />
            ))}
          </fieldset>
          {save.error && <ErrorNotice error={save.error} />}
          {save.isSuccess && !save.isPending && (
            <p className="muted" role="status">
              {t('notices.saved')}
            </p>
          )}
          {target.kind === 'desktop' ? (
            <p className="muted">{t('notices.desktop')}</p>
          ) : permission === 'default' ? (
            <div>
              <button type="button" className="button" onClick={() => void target.ask().then(setPermission)}>
                {t('notices.allow')}
              </button>
              <p className="muted">{t('notices.allowHint')}</p>
            </div>
          ) : (
            <p className="muted">{t(`notices.${permission}`)}</p>
          )}
        </>
      )}
    </section>
  );
}
