/**
 * A board's automation rules (docs/API.md "Automation rules"), listed and edited under its
 * setup: each rule is saved on its own as the planner adds, pauses or removes it, since a rule
 * is a record of its own (it syncs), not part of the board's one-request setup.
 */
import { useState } from 'react';
import { automationActions, type AutomationAction, type AutomationRule } from '../../../shared/resources/automation-rule.js';
import type { Status } from '../../../shared/resources/board.js';
import { useCreate, useList, useRemove, useUpdate } from '../../api/hooks.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { CheckboxField, Field } from '../../components/Field.js';
import { useT } from '../../i18n/index.js';

interface AutomationRulesProps {
  boardId: string;
  statuses: readonly Status[];
}

type Recipient = 'user' | 'next_resource';

interface RuleDraft {
  action: AutomationAction;
  /** '' : any exit status. */
  statusId: string;
  nextStatusId: string;
  notify: Recipient;
  userId: string;
}

const emptyDraft: RuleDraft = { action: 'set_next_status', statusId: '', nextStatusId: '', notify: 'user', userId: '' };

export function AutomationRules({ boardId, statuses }: AutomationRulesProps) {
  const t = useT();
  const rules = useList('automation_rule', { filter: `board_id:eq:'${boardId}'`, limit: 100, sort: 'created_at:asc' });
  const users = useList('user', { limit: 1000 });
  const create = useCreate('automation_rule');
  const update = useUpdate('automation_rule');
  const remove = useRemove('automation_rule');
  const [draft, setDraft] = useState<RuleDraft>(emptyDraft);
  const [ticked, setTicked] = useState<Record<string, boolean>>({});
  const statusName = (id: string | null) => statuses.find((s) => s.id === id)?.name ?? '';
  const userName = (id: string | null) => {
    const user = users.data?.data.find((u) => u.id === id);
    return user ? (user.display_name ?? user.fullname ?? user.email) : '';
  };

  function describe(rule: AutomationRule): string {
    if (rule.action === 'set_next_status') {
      const when = rule.status_id ? statusName(rule.status_id) : t('automation.anyExit');
      return t('automation.describe.set_next_status', { when, status: statusName(rule.next_status_id) });
    }
    if (rule.action === 'notify') {
      return rule.notify === 'user'
        ? t('automation.describe.notify.user', { user: userName(rule.user_id) })
        : t('automation.describe.notify.next_resource');
    }
    return t('automation.describe.lock');
  }

  function add() {
    const body =
      draft.action === 'set_next_status'
        ? { board_id: boardId, action: draft.action, status_id: draft.statusId || null, next_status_id: draft.nextStatusId || null }
        : draft.action === 'notify'
          ? {
              board_id: boardId,
              action: draft.action,
              notify: draft.notify,
              user_id: draft.notify === 'user' ? draft.userId || null : null,
            }
          : { board_id: boardId, action: draft.action };
    create.mutate(body, { onSuccess: () => setDraft(emptyDraft) });
  }

  const statusOptions = statuses.map((s) => (
    <option key={s.id} value={s.id}>
      {s.name}
    </option>
  ));

  return (
    <section className="panel panel--stack form-section" aria-labelledby="automation-title" data-testid="automation-rules">
      <h2 id="automation-title" className="panel__title">
        {t('automation.title')}
      </h2>
      <p className="muted">{t('automation.intro')}</p>
      {rules.isError && <ErrorNotice error={rules.error} onRetry={() => void rules.refetch()} />}
      {rules.data && rules.data.data.length === 0 && <p className="muted">{t('automation.none')}</p>}
      <ul className="automation-rules">
        {rules.data?.data.map((rule) => (
          <li key={rule.id} className="automation-rule">
            <span>{describe(rule)}</span>
            <CheckboxField
              label={t('automation.active')}
              checked={ticked[rule.id] ?? rule.active}
              onChange={(active) => {
                // Shown at once, while it is saved; the record's own value after that.
                setTicked({ ...ticked, [rule.id]: active });
                update.mutate(
                  { id: rule.id, changes: { active } },
                  { onSettled: () => setTicked(({ [rule.id]: _done, ...rest }) => rest) },
                );
              }}
            />
            <button type="button" className="button" onClick={() => remove.mutate(rule.id)}>
              {t('automation.remove')}
            </button>
          </li>
        ))}
      </ul>
      <fieldset className="automation-new">
        <legend>{t('automation.new')}</legend>
        <Field label={t('automation.action')}>
          {(control) => (
            <select
              {...control}
              value={draft.action}
              // The options are the actions themselves.
              onChange={(e) => setDraft({ ...draft, action: e.target.value as AutomationAction })}
            >
              {automationActions.map((action) => (
                <option key={action} value={action}>
                  {t(`automation.action.${action}`)}
                </option>
              ))}
            </select>
          )}
        </Field>
        {draft.action === 'set_next_status' && (
          <>
            <Field label={t('automation.when')}>
              {(control) => (
                <select {...control} value={draft.statusId} onChange={(e) => setDraft({ ...draft, statusId: e.target.value })}>
                  <option value="">{t('automation.anyExit')}</option>
                  {statusOptions}
                </select>
              )}
            </Field>
            <Field label={t('automation.nextStatus')}>
              {(control) => (
                <select {...control} value={draft.nextStatusId} onChange={(e) => setDraft({ ...draft, nextStatusId: e.target.value })}>
                  <option value="">{t('automation.choose')}</option>
                  {statusOptions}
                </select>
              )}
            </Field>
          </>
        )}
        {draft.action === 'notify' && (
          <>
            <Field label={t('automation.notify')}>
              {(control) => (
                <select
                  {...control}
                  value={draft.notify}
                  // The options are the two recipients.
                  onChange={(e) => setDraft({ ...draft, notify: e.target.value as Recipient })}
                >
                  <option value="user">{t('automation.notify.user')}</option>
                  <option value="next_resource">{t('automation.notify.next_resource')}</option>
                </select>
              )}
            </Field>
            {draft.notify === 'user' && (
              <Field label={t('automation.user')}>
                {(control) => (
                  <select {...control} value={draft.userId} onChange={(e) => setDraft({ ...draft, userId: e.target.value })}>
                    <option value="">{t('automation.choose')}</option>
                    {users.data?.data.map((u) => (
                      <option key={u.id} value={u.id}>
                        {u.display_name ?? u.fullname ?? u.email}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
            )}
          </>
        )}
        <button type="button" className="button" onClick={add} disabled={create.isPending}>
          {t('automation.add')}
        </button>
      </fieldset>
      {[create.error, update.error, remove.error].map((error, i) => (error ? <ErrorNotice key={i} error={error} /> : null))}
    </section>
  );
}
