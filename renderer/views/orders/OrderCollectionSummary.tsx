/**
 * The collection an order created: the job the planner will place on a board. Its activities
 * are summed from the order rows (unit × quantity minutes, docs/API.md "Orders and their
 * collection"), so this is where a planner checks what an order will cost in work.
 *
 * Its link opens the planboard where the collection is: planned, on its board with its first
 * card selected; not planned, in a backlog that lists it — an order's collection has no board
 * until it is planned, and boards without a backlog of their own list those (docs/API.md
 * "Board"). The planboard does the showing (`focusCollection` in the UI store).
 */
import { useMemo } from 'react';
import { useList, useRecord } from '../../api/hooks.js';
import { boardListQuery } from '../../api/queries.js';
import { CalendarDate } from '../../components/CalendarDate.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { useT, type Translate } from '../../i18n/index.js';
import { useUiStore } from '../../state/ui.js';
import type { Activity } from '../../../shared/resources/activity.js';
import type { Collection } from '../../../shared/resources/collection.js';
import { collectionOnPlanboard } from './collection-on-planboard.js';
import { OrderPromiseDate } from './OrderPromiseDate.js';
import { MaterialLine } from '../planboard/MaterialLine.js';
import { useMaterial } from '../planboard/material.js';

type CollectionWithActivities = Omit<Collection, 'activities'> & { activities?: (Activity & { time: number })[] };

const collectionQuery = { with: 'activities' };

/** "150 min (2 h 30 min)": minutes as the rows add them up, and what that is in hours. */
export function minutesText(minutes: number, t: Translate): string {
  const number = new Intl.NumberFormat(t.locale);
  if (minutes < 60) return t('orders.collection.minutes', { minutes: number.format(minutes) });
  const hours = number.format(Math.floor(minutes / 60));
  const rest = minutes % 60;
  return rest
    ? t('orders.collection.minutesInHoursAndMinutes', { minutes: number.format(minutes), hours, rest })
    : t('orders.collection.minutesInHours', { minutes: number.format(minutes), hours });
}

interface OrderCollectionSummaryProps {
  collectionId: string;
  titleId: string;
  /** Called before the link leaves the Orders screen. */
  beforeLeaving?: () => void;
}

export function OrderCollectionSummary({ collectionId, titleId, beforeLeaving }: OrderCollectionSummaryProps) {
  const t = useT();
  const collection = useRecord<'collection', CollectionWithActivities>('collection', collectionId, collectionQuery);
  const record = collection.data;
  const boards = useList('board', boardListQuery);
  const board = record?.board_id ? boards.data?.data.find((candidate) => candidate.id === record.board_id) : undefined;
  const material = useMaterial(useMemo(() => [collectionId], [collectionId]));

  return (
    <section className="panel panel--stack order-collection" aria-labelledby={titleId}>
      <h2 id={titleId} className="form-section__title">
        {t('orders.collection.title')}
      </h2>
      {collection.isError && <ErrorNotice error={collection.error} onRetry={() => void collection.refetch()} />}
      {record ? (
        <>
          <dl className="order-collection__facts">
            <div>
              <dt>{t('orders.collection.name')}</dt>
              <dd>{record.name ?? t('orders.collection.noName')}</dd>
            </div>
            <div>
              <dt>{t('orders.collection.status')}</dt>
              <dd>{t(`orders.collection.status.${record.status}`)}</dd>
            </div>
            <div>
              <dt>{t('orders.collection.board')}</dt>
              <dd>{record.board_id ? (board?.name ?? '…') : t('orders.collection.noBoard')}</dd>
            </div>
            <div>
              <dt>{t('orders.collection.dueDate')}</dt>
              <dd>{record.due_date ? <CalendarDate value={record.due_date} /> : t('orders.collection.noDueDate')}</dd>
            </div>
          </dl>
          {record.activities && record.activities.length > 0 ? (
            <ul className="order-collection__activities" aria-label={t('orders.collection.activities')}>
              {record.activities.map((activity) => (
                <li key={activity.id}>
                  <span>{activity.description}</span> <span className="muted">{minutesText(activity.time, t)}</span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">{t('orders.collection.noActivities')}</p>
          )}
          <MaterialLine material={material.isError ? undefined : material.data?.get(collectionId)} className="order-collection__material" />
          {boards.isError ? (
            <ErrorNotice error={boards.error} onRetry={() => void boards.refetch()} />
          ) : (
            boards.data && <PlanboardLink collection={record} boards={boards.data.data} beforeLeaving={beforeLeaving} />
          )}
        </>
      ) : (
        !collection.isError && (
          <p className="loading" role="status">
            {t('orders.collection.loading')}
          </p>
        )
      )}
    </section>
  );
}

interface PlanboardLinkProps {
  collection: Pick<Collection, 'id' | 'name' | 'status' | 'board_id' | 'due_date'>;
  boards: Parameters<typeof collectionOnPlanboard>[1];
  beforeLeaving: (() => void) | undefined;
}

/** The way to the collection on the planboard, or why there is none. */
function PlanboardLink({ collection, boards, beforeLeaving }: PlanboardLinkProps) {
  const t = useT();
  const pickedBoardId = useUiStore((state) => state.boardId);
  const focusCollection = useUiStore((state) => state.focusCollection);
  const showView = useUiStore((state) => state.showView);
  const openBoardSetup = useUiStore((state) => state.openBoardSetup);
  const place = collectionOnPlanboard(collection, boards, pickedBoardId);

  switch (place.kind) {
    case 'board':
      return (
        <div className="form-actions">
          {!place.planned && (
            <OrderPromiseDate
              collectionId={collection.id}
              boardId={place.boardId}
              boardName={place.boardName}
              dueDate={collection.due_date}
            />
          )}
          <button
            type="button"
            className="button"
            onClick={() => {
              beforeLeaving?.();
              focusCollection({ collectionId: collection.id, name: collection.name, boardId: place.boardId, planned: place.planned });
            }}
          >
            {place.planned ? t('orders.collection.openOnPlanboard') : t('orders.collection.showInBacklog', { board: place.boardName })}
          </button>
        </div>
      );
    case 'no-board':
      return (
        <div className="form-actions">
          <p className="muted">{t('orders.collection.noBoardToPlanOn')}</p>
          <button
            type="button"
            className="button"
            onClick={() => {
              beforeLeaving?.();
              showView('planboard');
              openBoardSetup('new');
            }}
          >
            {t('orders.collection.setUpBoard')}
          </button>
        </div>
      );
    case 'no-shared-backlog':
      return <p className="muted">{t('orders.collection.noSharedBacklog')}</p>;
    case 'board-gone':
      return <p className="muted">{t('orders.collection.boardGone')}</p>;
    case 'ignored':
      return <p className="muted">{t('orders.collection.ignoredHint')}</p>;
  }
}
