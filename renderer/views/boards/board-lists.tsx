/**
 * The board's lists in its setup form, each with its own columns for the one ListEditor:
 *
 * - stages: the planboard's rows, top to bottom. Each has a name, a delay (workdays kept free
 *   before the next stage, e.g. drying time), whether it starts with the collection instead of
 *   after the previous stage, an efficiency, setup minutes per card, and the activities allowed
 *   in it.
 * - statuses: in the order a card steps through them. New cards get the first entry status; a
 *   card in an exit status is done. A board without an entry status is allowed, but the form
 *   says what that means.
 * - labels: names and colours planners tag cards with.
 *
 * Limits come from the API's own declarations.
 */
import { useId } from 'react';
import { CheckboxField } from '../../components/Field.js';
import { FieldError } from '../../components/FieldError.js';
import { useT } from '../../i18n/index.js';
import type { Activity } from '../../../shared/resources/activity.js';
import { labelSpec, statusSpec } from '../../../shared/resources/board.js';
import { stageSpec } from '../../../shared/resources/stage.js';
import { newLabel, newStage, newStatus, type LabelDraft, type StageDraft, type StatusDraft } from './board-draft.js';
import { checkboxColumn, colorColumn, nameColumn, numberColumn, PlaceLabel } from './list-columns.js';
import type { ListSpec, RowCell } from './ListEditor.js';
import { NewActivityInline } from './NewActivityInline.js';

const stage = stageSpec.fields;

/** The stages, given every activity there is (undefined while loading). */
export function stageList(activities: Activity[] | undefined): ListSpec<StageDraft> {
  return {
    set: 'stages',
    layout: 'card',
    newRow: newStage,
    texts: {
      title: 'boards.stages',
      none: 'boards.stages.none',
      add: 'boards.stages.add',
      place: 'boards.stage.place',
      row: 'boards.stage.row',
    },
    columns: [
      nameColumn(stage.name.maxLength, 'form-grid__wide'),
      numberColumn('delay_day', 'boards.stage.delayDays', { min: stage.delay_day.minimum, max: stage.delay_day.maximum }),
      numberColumn('efficiency', 'boards.stage.efficiency', { min: stage.efficiency.minimum, max: stage.efficiency.maximum }),
      numberColumn('setup_minutes', 'boards.stage.setupMinutes', { min: stage.setup_minutes.minimum, max: stage.setup_minutes.maximum }),
      checkboxColumn('independent', 'boards.stage.independent'),
      (cell) => <StageActivities cell={cell} activities={activities} />,
    ],
  };
}

/** The activities allowed in a stage, ticked from all there are, and a new one made right there. */
function StageActivities({
  cell: { row, place, error, change },
  activities,
}: {
  cell: RowCell<StageDraft>;
  activities: Activity[] | undefined;
}) {
  const t = useT();
  const errorId = useId();
  const message = error('activities');

  function toggle(id: string, allowed: boolean) {
    change({ activityIds: allowed ? [...row.activityIds, id] : row.activityIds.filter((other) => other !== id) });
  }

  return (
    <fieldset className="checkbox-group form-grid__wide" aria-describedby={message ? errorId : undefined}>
      <legend>
        <PlaceLabel place={place} label={t('boards.stage.activities')} />
      </legend>
      {activities === undefined ? (
        <span className="muted">{t('activities.loading')}</span>
      ) : activities.length === 0 ? (
        <span className="muted">{t('boards.stage.noActivities')}</span>
      ) : (
        activities.map((activity) => (
          <CheckboxField
            key={activity.id}
            label={activity.description}
            checked={row.activityIds.includes(activity.id)}
            onChange={(allowed) => toggle(activity.id, allowed)}
          />
        ))
      )}
      <NewActivityInline place={place} onCreated={(id) => toggle(id, true)} />
      <FieldError id={errorId} message={message} />
    </fieldset>
  );
}

export const statusList: ListSpec<StatusDraft> = {
  set: 'statuses',
  layout: 'inline',
  newRow: newStatus,
  texts: {
    title: 'boards.statuses',
    none: 'boards.statuses.none',
    add: 'boards.statuses.add',
    place: 'boards.status.place',
    row: 'boards.status.row',
  },
  columns: [
    nameColumn(statusSpec.fields.name.maxLength, 'field--grow'),
    colorColumn,
    checkboxColumn('entry', 'boards.status.entry'),
    checkboxColumn('exit', 'boards.status.exit'),
  ],
  notice: (statuses) => !statuses.some((status) => status.entry) && <NoEntryNotice />,
};

function NoEntryNotice() {
  const t = useT();
  return (
    <p className="notice notice--warning" role="status">
      {t('boards.statuses.noEntry')}
    </p>
  );
}

export const labelList: ListSpec<LabelDraft> = {
  set: 'labels',
  layout: 'inline',
  newRow: newLabel,
  texts: {
    title: 'boards.labels',
    none: 'boards.labels.none',
    add: 'boards.labels.add',
    place: 'boards.label.place',
    row: 'boards.label.row',
  },
  columns: [nameColumn(labelSpec.fields.name.maxLength, 'field--grow'), colorColumn],
};
