/**
 * The collection an order created: the job the planner will place on a board. Its activities
 * are summed from the order rows (unit × quantity minutes, docs/API.md "Orders and their
 * collection"), so this is where a planner checks what an order will cost in work.
 *
 * There is no "open on the planboard" link: the planboard has no way yet to be told to show
 * one collection, and its backlog lists a board's collections while an order's collection has
 * no board until someone plans it. This panel says where the collection is instead.
 */
import { useList, useRecord } from '../../api/hooks.js';
import { boardListQuery } from '../../api/queries.js';
import { CalendarDate } from '../../components/CalendarDate.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import type { Activity } from '../../../shared/resources/activity.js';
import type { Collection } from '../../../shared/resources/collection.js';

type CollectionWithActivities = Omit<Collection, 'activities'> & { activities?: (Activity & { time: number })[] };

const collectionQuery = { with: 'activities' };

const statusNames: Readonly<Record<Collection['status'], string>> = {
  not_planned: 'Not planned',
  planned: 'Planned',
  ignored: 'Ignored',
};

export function minutesText(minutes: number): string {
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return `${minutes} min (${hours} h${rest ? ` ${rest} min` : ''})`;
}

export function OrderCollectionSummary({ collectionId, titleId }: { collectionId: string; titleId: string }) {
  const collection = useRecord<'collection', CollectionWithActivities>('collection', collectionId, collectionQuery);
  const record = collection.data;
  const boards = useList('board', boardListQuery);
  const board = record?.board_id ? boards.data?.data.find((candidate) => candidate.id === record.board_id) : undefined;

  return (
    <section className="order-collection" aria-labelledby={titleId}>
      <h2 id={titleId} className="form-section__title">
        Collection
      </h2>
      {collection.isError && <ErrorNotice error={collection.error} onRetry={() => void collection.refetch()} />}
      {record ? (
        <>
          <dl className="order-collection__facts">
            <div>
              <dt>Name</dt>
              <dd>{record.name ?? '(no name)'}</dd>
            </div>
            <div>
              <dt>Status</dt>
              <dd>{statusNames[record.status]}</dd>
            </div>
            <div>
              <dt>Board</dt>
              <dd>{record.board_id ? (board?.name ?? '…') : 'None yet'}</dd>
            </div>
            <div>
              <dt>Due date</dt>
              <dd>{record.due_date ? <CalendarDate value={record.due_date} /> : 'None'}</dd>
            </div>
          </dl>
          {record.activities && record.activities.length > 0 ? (
            <ul className="order-collection__activities" aria-label="Collection activities">
              {record.activities.map((activity) => (
                <li key={activity.id}>
                  <span>{activity.description}</span> <span className="muted">{minutesText(activity.time)}</span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">No activities yet: rows with an activity and a unit of minutes, hours or days add them.</p>
          )}
        </>
      ) : (
        !collection.isError && (
          <p className="loading" role="status">
            Loading the collection…
          </p>
        )
      )}
    </section>
  );
}
