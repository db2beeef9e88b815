/**
 * "Book for": whose time a planner books, the app's user by default. An admin, manager or
 * organiser may book for someone else, found by their name or by the resource they are (a
 * shop-floor planner books for "Saw 1"'s operator). Others see only their own name.
 */
import { useList } from '../../api/hooks.js';
import { Field } from '../../components/Field.js';
import { useT } from '../../i18n/index.js';
import { maxLimit } from '../../../shared/list.js';
import { userName } from '../app-user/app-user-api.js';

interface BookForProps {
  /** The user booked for; null books for nobody (only when the app has no user). */
  value: string | null;
  onChange(userId: string | null): void;
  /** The app's user, marked "(you)". */
  ownId: string | null;
  className?: string;
}

/** Users with the resource each one is, as the picker lists them. */
export function useBookableUsers() {
  return useList<
    'user',
    { id: string; fullname: string | null; email: string; archived_at: string | null; resource?: { name: string } | null }
  >('user', {
    sort: 'fullname:asc',
    limit: maxLimit,
    with: 'resource',
  });
}

export function BookFor({ value, onChange, ownId, className }: BookForProps) {
  const t = useT();
  const users = useBookableUsers();
  const live = (users.data?.data ?? []).filter((user) => !user.archived_at || user.id === value);
  return (
    <Field label={t('bookFor.label')} className={className}>
      {(control) => (
        <select {...control} value={value ?? ''} onChange={(event) => onChange(event.target.value || null)}>
          {ownId === null && <option value="">{t('bookFor.nobody')}</option>}
          {live.map((user) => (
            <option key={user.id} value={user.id}>
              {[userName(user), user.resource?.name].filter(Boolean).join(' · ')}
              {user.id === ownId ? ` ${t('bookFor.you')}` : ''}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
