/**
 * What the merge of changes made elsewhere did to the plan that neither side had (docs/API.md
 * "Sync", "Plan check"): a day over capacity, a person on two cards at once, stages out of
 * order, a collection now late. Each finding says which change on which computer made it;
 * "Accept" leaves the plan as it is and closes the finding.
 */
import { describeError } from '../../api/client.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { useT } from '../../i18n/index.js';
import { useNotices } from '../../state/notices.js';
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
  const notify = useNotices((state) => state.notify);
  const accept = useAcceptPlanFinding();

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
      {accept.isError && (
        <p className="form-error overruled__wide" role="alert">
          {describeError(accept.error)}
        </p>
      )}
      <div className="conflict__actions overruled__wide">
        <button
          type="button"
          className="button"
          disabled={accept.isPending}
          onClick={() => accept.mutate(finding.id, { onSuccess: () => notify(t('planCheck.accepted')) })}
        >
          {t('planCheck.accept')}
        </button>
      </div>
    </>
  );
}
