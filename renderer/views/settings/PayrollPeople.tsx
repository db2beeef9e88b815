/**
 * Employees, in Settings (issue 44 §6; docs/API.md "Payroll files", "Overtime balance"): each
 * user's resource, whose schedule payroll expects of them and their overtime balance is counted
 * against, and their `payroll_ref`, their number in the payroll package. Both at any time, for
 * every user, not only the app's own user at first start. Only admins change them: anyone else
 * sees the API's refusal beside the field.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { describeError } from '../../api/client.js';
import { payrollKey, useList, useUpdate } from '../../api/hooks.js';
import { resourceListQuery } from '../../api/queries.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { useT } from '../../i18n/index.js';
import { maxLimit } from '../../../shared/list.js';
import type { Resource } from '../../../shared/resources/resource.js';
import type { User } from '../../../shared/resources/user.js';

const userQuery = { sort: 'email:asc', limit: maxLimit, filter: 'archived_at:eq:null' };

export function PayrollPeople() {
  const t = useT();
  const users = useList('user', userQuery);
  const resources = useList('resource', resourceListQuery);
  const list = users.data?.data ?? [];
  return (
    <section className="panel panel--stack settings-section" aria-labelledby="payroll-people-title">
      <h2 id="payroll-people-title" className="panel__title">
        {t('payrollPeople.title')}
      </h2>
      <p className="muted">{t('payrollPeople.intro')}</p>
      {users.error && <ErrorNotice error={users.error} />}
      {users.isPending ? (
        <p className="muted">{t('common.loading')}</p>
      ) : list.length === 0 ? (
        <p className="empty-state">{t('payrollPeople.none')}</p>
      ) : (
        <table className="data-table" aria-labelledby="payroll-people-title">
          <thead>
            <tr>
              <th scope="col">{t('payrollPeople.user')}</th>
              <th scope="col">{t('payrollPeople.resourceColumn')}</th>
              <th scope="col">{t('payrollPeople.payrollRefColumn')}</th>
            </tr>
          </thead>
          <tbody>
            {list.map((user) => (
              <PersonRow key={user.id} user={user} resources={resources.data?.data ?? []} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function PersonRow({ user, resources }: { user: User; resources: readonly Resource[] }) {
  const t = useT();
  const queryClient = useQueryClient();
  const update = useUpdate('user');
  const [ref, setRef] = useState<string | null>(null);
  const name = user.fullname || user.email;
  // The summary's expected hours and balance follow a new link at once, events or not.
  const refresh = { onSuccess: () => queryClient.invalidateQueries({ queryKey: payrollKey }) };
  function saveRef() {
    if (ref === null || ref.trim() === (user.payroll_ref ?? '')) return setRef(null);
    update.mutate({ id: user.id, changes: { payroll_ref: ref.trim() || null } }, { onSuccess: () => setRef(null) });
  }
  return (
    <tr>
      <th scope="row">{name}</th>
      <td>
        <select
          aria-label={t('payrollPeople.resource', { name })}
          value={user.resource_id ?? ''}
          disabled={update.isPending}
          onChange={(event) => update.mutate({ id: user.id, changes: { resource_id: event.target.value || null } }, refresh)}
        >
          <option value="">{t('payrollPeople.noResource')}</option>
          {resources.map((resource) => (
            <option key={resource.id} value={resource.id}>
              {resource.name}
            </option>
          ))}
        </select>
      </td>
      <td>
        <input
          aria-label={t('payrollPeople.payrollRef', { name })}
          value={ref ?? user.payroll_ref ?? ''}
          maxLength={50}
          autoComplete="off"
          onChange={(event) => setRef(event.target.value)}
          onBlur={saveRef}
          onKeyDown={(event) => {
            if (event.key === 'Enter') saveRef();
          }}
        />
        {update.isSuccess && ref === null && (
          <span className="settings-section__saved" role="status">
            {t('payrollPeople.saved')}
          </span>
        )}
        {update.isError && (
          <span className="form-error" role="alert">
            {describeError(update.error)}
          </span>
        )}
      </td>
    </tr>
  );
}
