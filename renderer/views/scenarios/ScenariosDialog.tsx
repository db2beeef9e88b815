/**
 * The planboard's "Scenarios" menu (docs/API.md "Scenarios"): the environment's scenarios, to
 * open or throw away, and a new one made from the plan as it is now. Opening one runs every
 * screen in it until the planner goes back to the live plan (ScenarioBanner).
 */
import { useState, type FormEvent } from 'react';
import { describeError } from '../../api/client.js';
import { formatDateTime } from '../../components/dates-format.js';
import { Modal } from '../../components/Modal.js';
import { useT } from '../../i18n/index.js';
import { useNotices } from '../../state/notices.js';
import { useScenarioStore } from '../../state/scenario.js';
import { useMakeScenario, useScenarios, useThrowScenarioAway } from './scenario-api.js';

export function ScenariosDialog({ onClose }: { onClose(): void }) {
  const t = useT();
  const scenarios = useScenarios();
  const make = useMakeScenario();
  const throwAway = useThrowScenarioAway();
  const current = useScenarioStore((state) => state.current);
  const open = useScenarioStore((state) => state.open);
  const leave = useScenarioStore((state) => state.leave);
  const notify = useNotices((state) => state.notify);
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  function enter(scenario: { id: string; name: string }) {
    open({ id: scenario.id, name: scenario.name });
    notify(t('scenarios.opened', { name: scenario.name }));
    onClose();
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    try {
      enter(await make.mutateAsync(name.trim()));
    } catch (error) {
      setProblem(t('scenarios.failed', { problem: describeError(error) }));
    }
  }

  async function remove(scenario: { id: string; name: string }) {
    setProblem(null);
    try {
      await throwAway.mutateAsync(scenario.id);
      if (current?.id === scenario.id) leave();
      notify(t('scenarios.thrownAway', { name: scenario.name }));
    } catch (error) {
      setProblem(t('scenarios.failed', { problem: describeError(error) }));
    }
  }

  const list = scenarios.data?.data ?? [];
  return (
    <Modal title={t('scenarios.title')} closeLabel={t('common.close')} onClose={onClose} className="scenarios-dialog">
      <p className="muted">{t('scenarios.intro')}</p>
      {scenarios.isPending && (
        <p role="status" className="loading">
          {t('scenarios.loading')}
        </p>
      )}
      {scenarios.isError && <p role="alert">{t('scenarios.failed', { problem: describeError(scenarios.error) })}</p>}
      {scenarios.isSuccess && list.length === 0 && <p className="empty-state">{t('scenarios.none')}</p>}
      {list.length > 0 && (
        <ul className="scenarios-dialog__list" aria-label={t('scenarios.list')}>
          {list.map((scenario) => (
            <li key={scenario.id}>
              <span className="scenarios-dialog__name">
                <strong>{scenario.name}</strong>{' '}
                <span className="muted">{t('scenarios.made', { when: formatDateTime(scenario.created_at, t.locale) })}</span>
              </span>
              {current?.id === scenario.id ? (
                <span className="muted">{t('scenarios.current')}</span>
              ) : (
                <button
                  type="button"
                  className="button"
                  aria-label={t('scenarios.openName', { name: scenario.name })}
                  onClick={() => enter(scenario)}
                >
                  {t('scenarios.open')}
                </button>
              )}
              <button
                type="button"
                className="button button--quiet"
                aria-label={t('scenarios.throwAwayName', { name: scenario.name })}
                disabled={throwAway.isPending}
                onClick={() => void remove(scenario)}
              >
                {t('scenarios.throwAway')}
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className="scenarios-dialog__new" onSubmit={(event) => void submit(event)}>
        <h3>{t('scenarios.new')}</h3>
        <label>
          {t('scenarios.name')}
          <input
            value={name}
            maxLength={255}
            placeholder={t('scenarios.namePlaceholder')}
            onChange={(event) => setName(event.target.value)}
          />
        </label>
        <button type="submit" className="button button--primary" disabled={make.isPending || name.trim() === ''}>
          {make.isPending ? t('scenarios.making') : t('scenarios.make')}
        </button>
      </form>
      {problem && <p role="alert">{problem}</p>}
    </Modal>
  );
}
