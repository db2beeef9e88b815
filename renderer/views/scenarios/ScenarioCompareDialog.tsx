/**
 * A scenario beside the live plan as it is now (docs/API.md "Scenarios"): the cards it moved,
 * added and removed, each with both places; the orders that become late or on time, or whose
 * end moves; the load per stage and week, before and after. From here the planner promotes it:
 * one command on the live plan, one step on the undo history. Where a record was changed in
 * both plans since the fork, the planner chooses for each before anything is written.
 */
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { maxLimit } from '../../../shared/list.js';
import {
  promoteScenarioOperation,
  resolutions,
  type CardPlace,
  type ComparedCard,
  type ComparedCollection,
  type Resolution,
} from '../../../shared/operations/scenarios.js';
import { ApiRequestError, describeError } from '../../api/client.js';
import { callOperation } from '../../api/commands.js';
import { useApi } from '../../api/provider.js';
import { resourcePath } from '../../api/resources.js';
import { formatDay, formatDayRange } from '../../components/dates-format.js';
import { Modal } from '../../components/Modal.js';
import { useT } from '../../i18n/index.js';
import { useNotices } from '../../state/notices.js';
import { useScenarioStore, type OpenScenario } from '../../state/scenario.js';
import { undoManager } from '../../state/undo.js';
import { useScenarioComparison } from './scenario-api.js';

const resolutionLabels = { mine: 'scenarios.mine', theirs: 'scenarios.theirs', leave: 'scenarios.leave' } as const;

/** Every stage's name by id, for the places of cards (a comparison names only their stage's id). */
function useStageNames(): ReadonlyMap<string, string> {
  const { client } = useApi();
  const boards = useQuery({
    queryKey: ['board', 'stage-names'],
    queryFn: () =>
      client.list<{ id: string; stages?: { id: string; name: string }[] }>(resourcePath('board'), { with: 'stages', limit: maxLimit }),
  });
  return new Map((boards.data?.data ?? []).flatMap((board) => (board.stages ?? []).map((stage) => [stage.id, stage.name] as const)));
}

export function ScenarioCompareDialog({ scenario, onClose }: { scenario: OpenScenario; onClose(): void }) {
  const t = useT();
  const { transport } = useApi();
  const comparison = useScenarioComparison(scenario.id);
  const stages = useStageNames();
  const leave = useScenarioStore((state) => state.leave);
  const notify = useNotices((state) => state.notify);
  const [choices, setChoices] = useState<Record<string, Resolution>>({});
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const data = comparison.data;
  const clashes = data?.clashes ?? [];
  const nothing =
    data &&
    [
      data.cards.moved,
      data.cards.added,
      data.cards.removed,
      data.collections.end_moved,
      data.collections.become_late,
      data.collections.become_on_time,
      data.load,
      data.clashes,
    ].every((list) => list.length === 0);

  const place = (where: CardPlace | null) => {
    if (!where) return t('scenarios.notThere');
    const stage = stages.get(where.stage_id) ?? '';
    if (!where.start_date || !where.end_date) return t('scenarios.place', { stage, days: t('scenarios.unplanned') });
    return t('scenarios.place', { stage, days: formatDayRange(where.start_date, where.end_date, t.locale) });
  };

  async function promote() {
    if (clashes.some((clash) => !choices[clash.id])) {
      setProblem(t('scenarios.chooseEach'));
      return;
    }
    const description = t('scenarios.promoteAction', { name: scenario.name });
    setBusy(true);
    setProblem(null);
    try {
      await undoManager.performCommand(async () => {
        const result = await callOperation(transport, promoteScenarioOperation, {
          params: { id: scenario.id },
          body: { description, ...(clashes.length > 0 ? { resolve: choices } : {}) },
        });
        // On the live plan now, where the promote is: undo takes it back from there.
        leave();
        notify(
          result.command_id === null
            ? t('scenarios.promotedNothing', { name: scenario.name })
            : t('scenarios.promoted', { name: scenario.name, count: result.changed }),
        );
        return result.command_id;
      }, description);
      onClose();
    } catch (error) {
      // A colleague changed the live plan since the comparison: it is read again, with the new clashes to choose for.
      if (error instanceof ApiRequestError && error.status === 409) void comparison.refetch();
      setProblem(t('scenarios.failed', { problem: describeError(error) }));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      title={t('scenarios.compareTitle', { name: scenario.name })}
      closeLabel={t('common.close')}
      onClose={onClose}
      className="scenario-compare"
    >
      {comparison.isPending && (
        <p role="status" className="loading">
          {t('scenarios.comparing')}
        </p>
      )}
      {comparison.isError && <p role="alert">{t('scenarios.failed', { problem: describeError(comparison.error) })}</p>}
      {nothing && <p className="empty-state">{t('scenarios.noDifference')}</p>}
      {data && (
        <>
          <CardTable title={t('scenarios.cardsMoved')} cards={data.cards.moved} place={place} />
          <CardTable title={t('scenarios.cardsAdded')} cards={data.cards.added} place={place} />
          <CardTable title={t('scenarios.cardsRemoved')} cards={data.cards.removed} place={place} />
          <CollectionTable title={t('scenarios.becomeLate')} collections={data.collections.become_late} />
          <CollectionTable title={t('scenarios.becomeOnTime')} collections={data.collections.become_on_time} />
          <CollectionTable title={t('scenarios.endMoved')} collections={data.collections.end_moved} />
          <CompareTable
            title={t('scenarios.load')}
            heads={[t('scenarios.stage'), t('scenarios.weekColumn'), t('scenarios.live'), t('scenarios.inScenario')]}
            rows={data.load.map((row) => ({
              key: `${row.stage_id} ${row.week}`,
              cells: [
                row.stage_name,
                t('scenarios.week', { day: formatDay(row.week, t.locale) }),
                t('scenarios.hours', { hours: hours(row.live_minutes, t.locale) }),
                t('scenarios.hours', { hours: hours(row.scenario_minutes, t.locale) }),
              ],
            }))}
          />
          {clashes.length > 0 && (
            <section aria-label={t('scenarios.clashes')}>
              <h3>{t('scenarios.clashes')}</h3>
              <p className="muted">{t('scenarios.clashesIntro')}</p>
              <ul className="scenario-compare__clashes">
                {clashes.map((clash) => (
                  <li key={clash.id}>
                    <fieldset>
                      <legend>{clash.description}</legend>
                      {resolutions.map((resolution) => (
                        <label key={resolution}>
                          <input
                            type="radio"
                            name={`clash-${clash.id}`}
                            checked={choices[clash.id] === resolution}
                            onChange={() => setChoices((current) => ({ ...current, [clash.id]: resolution }))}
                          />
                          {t(resolutionLabels[resolution])}
                        </label>
                      ))}
                    </fieldset>
                  </li>
                ))}
              </ul>
            </section>
          )}
        </>
      )}
      {problem && <p role="alert">{problem}</p>}
      <div className="pb-plan-dialog__buttons">
        <button type="button" className="button" onClick={onClose}>
          {t('common.close')}
        </button>
        <button type="button" className="button button--primary" disabled={busy || !data || nothing} onClick={() => void promote()}>
          {busy ? t('scenarios.promoting') : t('scenarios.promote')}
        </button>
      </div>
    </Modal>
  );
}

function hours(minutes: number, locale: string): string {
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(minutes / 60);
}

/** One part of the comparison: a heading and a table, or nothing when the part is empty. */
function CompareTable({ title, heads, rows }: { title: string; heads: string[]; rows: { key: string; cells: ReactNode[] }[] }) {
  if (rows.length === 0) return null;
  return (
    <section aria-label={title}>
      <h3>{title}</h3>
      <table className="scenario-compare__table">
        <thead>
          <tr>
            {heads.map((head) => (
              <th key={head} scope="col">
                {head}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              {row.cells.map((cell, at) => (
                <td key={at}>{cell}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function CardTable({ title, cards, place }: { title: string; cards: ComparedCard[]; place(where: CardPlace | null): string }) {
  const t = useT();
  return (
    <CompareTable
      title={title}
      heads={[t('scenarios.card'), t('scenarios.live'), t('scenarios.inScenario')]}
      rows={cards.map((card) => ({ key: card.id, cells: [card.name, place(card.live), place(card.scenario)] }))}
    />
  );
}

function CollectionTable({ title, collections }: { title: string; collections: ComparedCollection[] }) {
  const t = useT();
  const day = (date: string | null, none: string) => (date ? formatDay(date, t.locale) : none);
  const moved = (days: number | null) =>
    days === null || days === 0 ? null : (
      <span className="muted"> ({days > 0 ? t.count('scenarios.later', days) : t.count('scenarios.sooner', -days)})</span>
    );
  return (
    <CompareTable
      title={title}
      heads={[t('scenarios.collection'), t('scenarios.due'), t('scenarios.live'), t('scenarios.inScenario')]}
      rows={collections.map((collection) => ({
        key: collection.id,
        cells: [
          collection.name,
          day(collection.due_date, t('scenarios.noDue')),
          day(collection.live_end, t('scenarios.noEnd')),
          <>
            {day(collection.scenario_end, t('scenarios.noEnd'))}
            {moved(collection.days)}
          </>,
        ],
      }))}
    />
  );
}
