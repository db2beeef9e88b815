/**
 * What the merge of changes made elsewhere did to the plan that neither side had (docs/API.md
 * "Sync", "Plan check"): a day over capacity, a person on two cards at once, stages out of
 * order, a collection now late. Each finding says which change on which computer made it, and
 * offers the ways out: "Move mine later" plans this computer's collections in it again against
 * free capacity from the day after (a day over capacity, a person on two cards), "Revert my
 * change" undoes the newest command made here on its cards, and "Accept" leaves the plan as it
 * is. Each closes the finding; the first two are one undoable command each.
 */
import { useState } from 'react';
import { addDays } from '../../../shared/dates.js';
import { describeError } from '../../api/client.js';
import { undoCommand } from '../../api/commands.js';
import { useApi } from '../../api/provider.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { useT } from '../../i18n/index.js';
import { useNotices } from '../../state/notices.js';
import { undoManager } from '../../state/undo.js';
import { replanCollections } from '../planboard/promise-dates.js';
import { useAcceptPlanFinding, usePlanFindings, type ShownPlanFinding } from './plan-check-api.js';
import { changeText, findingText } from './plan-check-words.js';

export function PlanCheckList() {
  const t = useT();
  const findings = usePlanFindings();
  const page = findings.data;
  if (findings.isError) return <ErrorNotice error={findings.error} onRetry={() => void findings.refetch()} />;
  if (!page) return null;

  return (
    <section className="panel panel--stack" aria-labelledby="plan-check-title">
      <div className="panel__header">
        <h2 id="plan-check-title" className="panel__title">
          {t('planCheck.title')}
        </h2>
        <span className="muted">{t.count('planCheck.count', page.count)}</span>
      </div>
      {page.count === 0 ? (
        <p className="muted">{t('planCheck.none')}</p>
      ) : (
        <>
          <p className="muted">{t('planCheck.explain')}</p>
          <ul className="conflict-list" aria-label={t('planCheck.title')}>
            {page.data.map((finding) => (
              <li key={finding.id} className="conflict plan-finding">
                <PlanFindingView finding={finding} />
              </li>
            ))}
          </ul>
          {page.count > page.data.length && <p className="muted">{t('planCheck.more', { shown: page.data.length, count: page.count })}</p>}
        </>
      )}
    </section>
  );
}

function PlanFindingView({ finding }: { finding: ShownPlanFinding }) {
  const t = useT();
  const { transport } = useApi();
  const notify = useNotices((state) => state.notify);
  const accept = useAcceptPlanFinding();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const { mine } = finding;
  // Later than the day it is about: only a day's finding has one, and its cards move off it.
  const canMoveLater = finding.date !== null && finding.kind !== 'late_collection' && mine.collection_ids.length > 0;

  /** Runs a way out, then closes the finding: the plan changed as the planner chose. */
  async function wayOut(run: () => Promise<void>, done: string) {
    setBusy(true);
    setProblem(null);
    try {
      await run();
      await accept.mutateAsync(finding.id);
      notify(done);
    } catch (error) {
      setProblem(describeError(error));
    } finally {
      setBusy(false);
    }
  }

  const moveLater = () => {
    const description = t('planCheck.moveLaterAction');
    return wayOut(
      () =>
        undoManager.performCommand(
          () => replanCollections(transport, finding.board_id, mine.collection_ids, description, addDays(finding.date!, 1)),
          description,
        ),
      t('planCheck.movedLater'),
    );
  };
  const revert = (command: { id: string; description: string }) =>
    wayOut(
      async () => {
        await undoCommand(transport, command.id);
      },
      t('planCheck.reverted', { action: command.description }),
    );

  return (
    <>
      <div className="conflict__heading">
        <p className="conflict__what">{findingText(finding, t)}</p>
      </div>
      <div className="plan-finding__changes">
        <span className="muted">{t('planCheck.madeBy')}</span>
        {finding.changes.length === 0 ? (
          <p className="muted">{t('planCheck.noChange')}</p>
        ) : (
          <ul>
            {finding.changes.map((change) => (
              <li key={`${change.resource}:${change.record_id}:${change.changed_by}`}>{changeText(change, t)}</li>
            ))}
          </ul>
        )}
      </div>
      {(accept.isError || problem) && (
        <p className="form-error overruled__wide" role="alert">
          {problem ?? describeError(accept.error)}
        </p>
      )}
      <div className="conflict__actions overruled__wide">
        {canMoveLater && (
          <button type="button" className="button" disabled={busy} onClick={() => void moveLater()}>
            {t('planCheck.moveLater')}
          </button>
        )}
        {mine.command && (
          <button
            type="button"
            className="button"
            disabled={busy}
            title={t('planCheck.revertTitle', { action: mine.command.description })}
            onClick={() => void revert(mine.command!)}
          >
            {t('planCheck.revert')}
          </button>
        )}
        <button
          type="button"
          className="button"
          disabled={busy || accept.isPending}
          onClick={() => accept.mutate(finding.id, { onSuccess: () => notify(t('planCheck.accepted')) })}
        >
          {t('planCheck.accept')}
        </button>
      </div>
    </>
  );
}
