/**
 * A correction of a user's overtime balance (docs/API.md "Overtime balance"), booked from the
 * payroll screen: hours paid out draw it down, hours brought over from the old payroll system
 * add to it. An admin's, as the API says; the API's refusal is shown as it comes. The summary
 * reads again from the change event of the correction, as after any write.
 */
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { PayrollSummary } from '../../../shared/payroll-summary.js';
import { describeError } from '../../api/client.js';
import { useApi } from '../../api/provider.js';
import { resourcePath } from '../../api/resources.js';
import { Field } from '../../components/Field.js';
import { useT } from '../../i18n/index.js';
import { useNotices } from '../../state/notices.js';
import { parseDuration } from '../time/duration.js';

type Kind = 'payout' | 'addition';

export function OvertimeCorrectionForm({ summary, day }: { summary: PayrollSummary; day: string }) {
  const t = useT();
  const { client } = useApi();
  const notify = useNotices((state) => state.notify);
  const people = summary.users.filter((user) => user.user_id !== null && user.overtime !== null);
  const [userId, setUserId] = useState('');
  const [kind, setKind] = useState<Kind>('payout');
  const [hours, setHours] = useState('');
  const [date, setDate] = useState(day);
  const [note, setNote] = useState('');
  const [hoursError, setHoursError] = useState<string | undefined>();
  const chosen = people.find((user) => user.user_id === userId) ?? people[0];
  const book = useMutation({
    mutationFn: (minutes: number) =>
      client.create(resourcePath('overtime_correction'), {
        user_id: chosen!.user_id,
        date,
        minutes: kind === 'payout' ? -minutes : minutes,
        description: note.trim() === '' ? null : note.trim(),
      }),
    onSuccess: () => {
      notify(t(kind === 'payout' ? 'payroll.correction.paidOut' : 'payroll.correction.added', { name: chosen!.user ?? '', hours }));
      setHours('');
      setNote('');
    },
  });
  if (people.length === 0) return null;

  function submit(event: FormEvent) {
    event.preventDefault();
    const minutes = parseDuration(hours);
    if (minutes === null || minutes === 0) {
      setHoursError(t('payroll.correction.hoursInvalid'));
      return;
    }
    setHoursError(undefined);
    book.mutate(minutes);
  }

  return (
    <form className="payroll__correction" aria-label={t('payroll.correction.title')} onSubmit={submit}>
      <h3>{t('payroll.correction.title')}</h3>
      <Field label={t('payroll.correction.user')}>
        {(control) => (
          <select {...control} value={chosen?.user_id ?? ''} onChange={(event) => setUserId(event.target.value)}>
            {people.map((user) => (
              <option key={user.user_id} value={user.user_id!}>
                {user.user}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label={t('payroll.correction.kind')}>
        {(control) => (
          <select
            {...control}

            value={kind}
            onChange={(event) => setKind(event.target.value === 'addition' ? 'addition' : 'payout')}
          >
            <option value="payout">{t('payroll.correction.payout')}</option>
            <option value="addition">{t('payroll.correction.addition')}</option>
          </select>
        )}
      </Field>
      <Field label={t('payroll.correction.hours')} error={hoursError}>
        {(control) => <input {...control} value={hours} placeholder="6:00" onChange={(event) => setHours(event.target.value)} />}
      </Field>
      <Field label={t('payroll.correction.date')}>
        {(control) => <input {...control} type="date" value={date} required onChange={(event) => setDate(event.target.value)} />}
      </Field>
      <Field label={t('payroll.correction.note')}>
        {(control) => <input {...control} value={note} maxLength={500} onChange={(event) => setNote(event.target.value)} />}
      </Field>
      <button type="submit" className="button" disabled={book.isPending}>
        {t('payroll.correction.book')}
      </button>
      {book.isError && (
        <p className="form-error" role="alert">
          {describeError(book.error)}
        </p>
      )}
    </form>
  );
}
