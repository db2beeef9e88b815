/**
 * One day of one card on the week sheet. With no entry or one, it is an input: type a
 * duration (`1:30`, `1.5`, `90m`) and leave the cell or press Enter; Escape puts it back. An
 * approved entry shows a lock and cannot be typed over; a running timer neither. With several
 * entries, the cell opens their list, where each one is changed on its own. A cell whose time
 * overlaps other time of the same user (the API's `overlaps`) is marked.
 */
import { Lock, TriangleAlert, X } from 'lucide-react';
import { useState } from 'react';
import { useT } from '../../i18n/index.js';
import { formatTime } from '../../components/dates-format.js';
import { formatHours, parseDuration } from './duration.js';
import { isoInstant } from './periods.js';
import { entryMinutes, planCellEdit, type SheetEntry, type WeekCell } from './week-grid.js';

export type CellWrite =
  { kind: 'create'; start: string; end: string } | { kind: 'update'; id: string; end: string } | { kind: 'delete'; id: string };

interface SheetCellProps {
  cell: WeekCell;
  /** "Weld frame A, Monday 16 November". */
  label: string;
  timeZone: string;
  now: number;
  /** Resolves true once written (and the sheet re-read), false when it failed. */
  onWrite(change: CellWrite): Promise<boolean>;
  onProblem(message: string): void;
}

export function SheetCell({ cell, label, timeZone, now, onWrite, onProblem }: SheetCellProps) {
  const t = useT();
  const [text, setText] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [listOpen, setListOpen] = useState(false);
  const only = cell.entries.length === 1 ? cell.entries[0]! : null;
  const overlapping = cell.entries.some((entry) => (entry.overlaps?.length ?? 0) > 0);
  const overlapMark = overlapping && (
    <span className="sheet-cell__overlap" role="img" aria-label={t('week.overlap')} title={t('week.overlap')}>
      <TriangleAlert aria-hidden="true" size={12} />
    </span>
  );

  if (cell.entries.length > 1 || listOpen) {
    return (
      <div className="sheet-cell">
        <button
          type="button"
          className="sheet-cell__many"
          aria-label={`${label}: ${t.count('week.entries', cell.entries.length)}, ${formatHours(cell.minutes)}`}
          aria-expanded={listOpen}
          onClick={() => setListOpen(!listOpen)}
        >
          {formatHours(cell.minutes)}
          <span className="sheet-cell__count" aria-hidden="true">
            ×{cell.entries.length}
          </span>
        </button>
        {overlapMark}
        {listOpen && (
          <CellEntries
            label={label}
            cell={cell}
            timeZone={timeZone}
            now={now}
            onWrite={onWrite}
            onProblem={onProblem}
            onClose={() => setListOpen(false)}
          />
        )}
      </div>
    );
  }

  const frozen = only?.locked ? 'locked' : only?.running ? 'running' : null;

  async function commit() {
    if (text === null) return;
    const edit = planCellEdit(cell, text, timeZone, now);
    switch (edit.kind) {
      case 'unchanged':
        setText(null);
        return;
      case 'invalid':
        onProblem(edit.reason === 'too-long' ? t('week.tooLong') : t('week.notADuration', { text }));
        setText(null);
        return;
      case 'locked':
        onProblem(t('week.lockedCell'));
        setText(null);
        return;
      case 'running':
        onProblem(t('week.runningCell'));
        setText(null);
        return;
      case 'choose':
        setText(null);
        setListOpen(true);
        return;
      default:
        setSaving(true);
        await onWrite(edit);
        setSaving(false);
        setText(null);
    }
  }

  return (
    <div className={frozen ? `sheet-cell sheet-cell--${frozen}` : 'sheet-cell'}>
      <input
        className="sheet-cell__input"
        aria-label={label}
        inputMode="decimal"
        autoComplete="off"
        readOnly={frozen !== null || saving}
        title={frozen === 'locked' ? t('entries.lockedTitle') : frozen === 'running' ? t('week.runningTitle') : undefined}
        value={text ?? formatHours(cell.minutes, true)}
        onFocus={(event) => event.currentTarget.select()}
        onChange={(event) => setText(event.target.value)}
        onBlur={() => void commit()}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            void commit();
          } else if (event.key === 'Escape') {
            setText(null);
            event.currentTarget.blur();
          }
        }}
      />
      {frozen === 'locked' && (
        <span className="sheet-cell__icon">
          <Lock aria-hidden="true" size={12} />
        </span>
      )}
      {frozen === 'running' && <span className="sheet-cell__icon sheet-cell__icon--running" aria-hidden="true" />}
      {overlapMark}
    </div>
  );
}

interface CellEntriesProps extends Omit<SheetCellProps, 'onProblem'> {
  onProblem(message: string): void;
  onClose(): void;
}

/** The entries of a cell with more than one: each its own duration, or delete. */
function CellEntries({ label, cell, timeZone, now, onWrite, onProblem, onClose }: CellEntriesProps) {
  const t = useT();
  return (
    <div
      className="sheet-cell__list"
      role="dialog"
      aria-label={t('week.cellEntries', { cell: label })}
      onKeyDown={(event) => {
        if (event.key === 'Escape') onClose();
      }}
    >
      <ul>
        {cell.entries.map((entry) => (
          <CellEntry key={entry.id} entry={entry} timeZone={timeZone} now={now} onWrite={onWrite} onProblem={onProblem} />
        ))}
      </ul>
      <button type="button" className="button button--quiet" onClick={onClose}>
        {t('common.close')}
      </button>
    </div>
  );
}

function CellEntry({
  entry,
  timeZone,
  now,
  onWrite,
  onProblem,
}: {
  entry: SheetEntry;
  timeZone: string;
  now: number;
  onWrite: SheetCellProps['onWrite'];
  onProblem(message: string): void;
}) {
  const t = useT();
  const [text, setText] = useState<string | null>(null);
  const minutes = entryMinutes(entry, now);
  const span = `${formatTime(entry.start, t.locale, timeZone)}–${entry.end ? formatTime(entry.end, t.locale, timeZone) : '…'}`;
  const frozen = entry.locked || entry.running;

  async function commit() {
    if (text === null) return;
    const typed = parseDuration(text);
    setText(null);
    if (typed === null) return onProblem(t('week.notADuration', { text }));
    if (typed === minutes) return;
    await onWrite(
      typed === 0
        ? { kind: 'delete', id: entry.id }
        : { kind: 'update', id: entry.id, end: isoInstant(Date.parse(entry.start) + typed * 60_000) },
    );
  }

  return (
    <li className="sheet-cell__entry">
      <span className="sheet-cell__span">{span}</span>
      <input
        className="sheet-cell__input"
        aria-label={t('week.entryDuration', { span })}
        readOnly={frozen}
        value={text ?? formatHours(minutes)}
        onFocus={(event) => event.currentTarget.select()}
        onChange={(event) => setText(event.target.value)}
        onBlur={() => void commit()}
        onKeyDown={(event) => {
          if (event.key === 'Enter') void commit();
          if (event.key === 'Escape') setText(null);
        }}
      />
      {entry.locked ? (
        <span role="img" aria-label={t('entries.locked')} title={t('entries.lockedTitle')}>
          <Lock aria-hidden="true" size={14} />
        </span>
      ) : entry.running ? (
        <span className="muted">{t('week.running')}</span>
      ) : (
        <button
          type="button"
          className="button button--quiet"
          aria-label={t('week.deleteEntry', { span })}
          onClick={() => void onWrite({ kind: 'delete', id: entry.id })}
        >
          <X aria-hidden="true" size={14} />
        </button>
      )}
    </li>
  );
}
