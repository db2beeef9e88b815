/**
 * What the floor reported on the card (docs/API.md "The floor"), in the panel's Work section:
 * hours booked against planned with a bar (over plan marked in the theme's danger colour, and
 * in words), who has a timer running on it since when, and per order row of the card's work the
 * pieces made against ordered and scrapped. Reads the panel's time entries (shared with the Time
 * section) and the order the Work section reads; the figures are floor-figures.ts's.
 */
import type { OrderRow } from '../../../shared/resources/order-row.js';
import { formatDateTime } from '../../components/dates-format.js';
import { useT } from '../../i18n/index.js';
import { activitiesOf } from '../time/card-activities.js';
import type { CardDetail } from './card-api.js';
import { useTimeEntries } from './card-queries.js';
import { bookedMinutes, bookedShare, entryUserName, hoursText, plannedMinutes, rowFigures, runningEntry } from './floor-figures.js';
import { useNow } from './use-now.js';

/** A running timer's minutes count up: read the clock again every half minute. */
const tick = 30_000;

export function CardFloorFigures({ card, orderRows }: { card: CardDetail; orderRows: readonly OrderRow[] }) {
  const t = useT();
  const entries = useTimeEntries(card.id);
  const now = useNow(tick);
  if (!entries.data) return null;
  const planned = plannedMinutes(card.activities);
  const booked = bookedMinutes(entries.data, now);
  const share = bookedShare(booked, planned);
  const running = runningEntry(entries.data);
  const rows = rowFigures(
    orderRows,
    activitiesOf(card).map((activity) => activity.id),
  );
  const pieces = (count: number) => new Intl.NumberFormat(t.locale).format(count);
  return (
    <div className="card-floor" aria-label={t('card.floor')} role="group">
      <p className={share.over ? 'card-floor__booked card-floor__booked--over' : 'card-floor__booked'}>
        {t('card.floor.booked', { booked: hoursText(booked, t.locale), planned: hoursText(planned, t.locale) })}
        {share.over && <strong> · {t('card.floor.over', { percent: share.percent })}</strong>}
      </p>
      <div className={share.over ? 'card-floor__bar card-floor__bar--over' : 'card-floor__bar'} aria-hidden="true">
        <span style={{ width: `${Math.min(100, share.percent)}%` }} />
      </div>
      {running && (
        <p className="card-floor__running">
          {t('card.floor.startedBy', {
            name: entryUserName(running) ?? t('card.floor.someone'),
            time: formatDateTime(running.start, t.locale),
          })}
        </p>
      )}
      {rows.length > 0 && (
        <ul className="card-floor__rows" aria-label={t('card.floor.rows')}>
          {rows.map(({ row, made, ordered, scrapped }) => (
            <li key={row.id}>
              <span className="muted">{[row.code, row.description].filter(Boolean).join(' ') || t('card.floor.row')}: </span>
              {[
                ordered === null
                  ? t('card.floor.made', { made: pieces(made) })
                  : t('card.floor.madeOf', { made: pieces(made), ordered: pieces(ordered) }),
                scrapped > 0 ? t('card.floor.scrapped', { scrapped: pieces(scrapped) }) : null,
              ]
                .filter(Boolean)
                .join(' · ')}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
