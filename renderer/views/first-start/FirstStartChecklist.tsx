/**
 * The first-start checklist (README "First start"): what to set up, in the order that works,
 * each step a link to its screen that ticks itself off when done. It shows while setup is not
 * complete and the planner has not put it away; "Try a sample workshop" fills the app with an
 * example to look around in instead. It is one strip above the screen, the steps side by side
 * and their hints on hover (and read out), so every screen keeps the window (ux-walk-2: a box of
 * some 270 px pushed each screen down).
 */
import { CheckCircle2, Circle, X } from 'lucide-react';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { useT } from '../../i18n/index.js';
import { useUiStore } from '../../state/ui.js';
import { useOrderScreen } from '../orders/order-screen-state.js';
import { useFirstStart } from './first-start-state.js';
import { useLoadSampleWorkshop, useSampleWorkshop } from './sample-workshop-api.js';
import { useSetupProgress, type SetupStepName } from './setup-progress.js';
import './first-start.css';

/** Opens the screen where a step is done. */
function openStep(step: SetupStepName): void {
  const ui = useUiStore.getState();
  if (step === 'activity') ui.showView('activities');
  else if (step === 'resource') ui.showView('resources');
  else if (step === 'order') {
    ui.showView('orders');
    useOrderScreen.getState().newOrder();
  } else if (step === 'board') {
    ui.showView('planboard');
    ui.openBoardSetup('new');
  } else {
    ui.closeBoardSetup();
    ui.showView('planboard');
  }
}

export function FirstStartChecklist() {
  const t = useT();
  const progress = useSetupProgress();
  const dismissed = useFirstStart((state) => state.dismissed);
  const setDismissed = useFirstStart((state) => state.setDismissed);
  const sample = useSampleWorkshop();
  const loadSample = useLoadSampleWorkshop();
  if (!progress.known || progress.complete || dismissed) return null;
  const next = progress.steps.find((step) => !step.done)?.name;

  const trySample = () =>
    loadSample.mutate(undefined, {
      onSuccess: (summary) => {
        const ui = useUiStore.getState();
        if (summary.board_id) ui.pickBoard(summary.board_id);
        ui.closeBoardSetup();
        ui.showView('planboard');
      },
    });

  return (
    <section className="first-start" aria-labelledby="first-start-title">
      <header className="first-start__header">
        <h2 id="first-start-title" className="first-start__title">
          {t('firstStart.title')}
        </h2>
        <button
          type="button"
          className="button button--quiet first-start__close"
          aria-label={t('firstStart.dismiss')}
          title={t('firstStart.dismiss')}
          onClick={() => setDismissed(true)}
        >
          <X aria-hidden="true" size={16} />
        </button>
      </header>
      <p className="visually-hidden">{t('firstStart.intro')}</p>
      <ol className="first-start__steps">
        {progress.steps.map((step) => (
          <li key={step.name} className={`first-start__step${step.done ? ' first-start__step--done' : ''}`} data-step={step.name}>
            {step.done ? (
              <CheckCircle2 className="first-start__tick" aria-hidden="true" size={18} />
            ) : (
              <Circle className="first-start__tick" aria-hidden="true" size={18} />
            )}
            <button
              type="button"
              className={`first-start__link${step.name === next ? ' first-start__next' : ''}`}
              aria-describedby={`first-start-hint-${step.name}`}
              title={t(step.hintKey)}
              onClick={() => openStep(step.name)}
            >
              {t(step.labelKey)}
            </button>
            <span className="visually-hidden">{step.done ? t('firstStart.done') : t('firstStart.todo')}</span>
            <span id={`first-start-hint-${step.name}`} className="visually-hidden">
              {t(step.hintKey)}
            </span>
          </li>
        ))}
      </ol>
      {!sample.data?.loaded && (
        <div className="first-start__sample">
          <button
            type="button"
            className="button"
            disabled={loadSample.isPending}
            onClick={trySample}
            aria-describedby="first-start-sample-hint"
            title={t('firstStart.trySampleHint')}
          >
            {t('firstStart.trySample')}
          </button>
          <span id="first-start-sample-hint" className="visually-hidden">
            {t('firstStart.trySampleHint')}
          </span>
        </div>
      )}
      {loadSample.error && <ErrorNotice error={loadSample.error} />}
    </section>
  );
}

/** The navigation's way back to a checklist put away, while setup is not complete. */
export function GettingStartedItem() {
  const t = useT();
  const progress = useSetupProgress();
  const dismissed = useFirstStart((state) => state.dismissed);
  const setDismissed = useFirstStart((state) => state.setDismissed);
  if (!progress.known || progress.complete || !dismissed) return null;
  return (
    <li>
      <button type="button" className="navigation__button" onClick={() => setDismissed(false)}>
        {t('firstStart.reopen')}
      </button>
    </li>
  );
}
