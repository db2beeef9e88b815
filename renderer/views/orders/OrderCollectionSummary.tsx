/**
 * The collection an order created: the job the planner will place on a board. Its activities
 * are summed from the order rows (unit × quantity minutes, docs/API.md "Orders and their
 * collection"), so this is where a planner checks what an order will cost in work.
 *
 * The planboard cannot open a single collection yet (it has no backlog to show it in), so
 * there is no link to it here; this panel says where the collection is instead.
 */
import { useRecord } from '../../api/hooks.js';
import { CalendarDate } from '../../components/CalendarDate.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import type { Activity } from '../../../shared/resources/activity.js';
import type { Collection } from '../../../shared/resources/collection.js';

type CollectionWithActivities = Collection & { activities?: (Activity & { time: number })[] };

const collectionQuery = { with: 'activities' };

const statusNames: Readonly<Record<Collection['status'], string>> = {
  not_planned: 'Not planned: waiting in the backlog',
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
