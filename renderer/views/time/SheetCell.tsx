/**
 * One day of one card on the week sheet. With no entry or one, it is an input: type a
 * duration (`1:30`, `1.5`, `90m`) and leave the cell or press Enter; Escape puts it back. An
 * approved entry shows a lock and cannot be typed over; a running timer neither. With several
 * entries, or one that crosses midnight, the cell opens their list, where each one is changed
 * on its own. A cell whose time overlaps other time of the same user (the API's `overlaps`) is
 * marked. On a day of a closed payroll period the cell shows its time, disabled, and says why.
 *
 * What is typed is booked on that day only, beside the day's other time (week-grid.ts): time
 * that does not fit is refused with what is free, and a day that would go far over the
 * person's schedule asks first, "Book it" or "Correct it".
 */
import { Lock, TriangleAlert, X } from 'lucide-react';
import { useRef, useState } from 'react';
import { Modal } from '../../components/Modal.js';
import { useT, type Translate } from '../../i18n/index.js';
import { formatDay, formatTime } from '../../components/dates-format.js';
import { formatHours, parseDuration } from './duration.js';
import {
  entryMinutes,
  planCellEdit,
  planEntryChange,
  type CellEdit,
  type SheetContext,
  type SheetEntry,
  type WeekCell,
} from './week-grid.js';

export type CellWrite =
  | { kind: 'create'; start: string; end: string }
  | { kind: 'update'; id: string; start: string; end: string }
  | { kind: 'delete'; id: string };

interface SheetCellProps {
  cell: WeekCell;
  /** "Weld frame A, Monday 16 November". */
  label: string;
  sheet: SheetContext;
  /** Resolves true once written (and the sheet re-read), false when it failed. */
  onWrite(change: CellWrite): Promise<boolean>;
  onProblem(message: string): void;
  /** Set on a day of a closed payroll period: why its time is shown but not typed into. */
  closedTitle?: string | undefined;
}

/** Why an edit is not written, in the planner's words; null for one that is written or needs no word. */
function editProblem(edit: CellEdit, text: string, t: Translate): string | null {
  const day = (date: string) => formatDay(date, t.locale, { weekday: 'long', day: 'numeric', month: 'long' });
  switch (edit.kind) {
    case 'invalid':
      return edit.reason === 'too-long' ? t('week.tooLong') : t('week.notADuration', { text });
    case 'locked':
      return t('week.lockedCell');
    case 'running':
      return t('week.runningCell');
    case 'other-week':
      return t('week.otherWeek');
    case 'no-room':
      return edit.free < edit.minutes
        ? t('week.noRoomLeft', { free: formatHours(edit.free), day: day(edit.date), hours: formatHours(edit.minutes) })
        : t('week.noRoomPiece', { hours: formatHours(edit.minutes), day: day(edit.date), longest: formatHours(edit.longest) });
    case 'over-limit':
      return t('fieldError.dayLimit', {
        day: formatDay(edit.date, t.locale),
        hours: formatHours(edit.total),
        limit: Math.round(edit.limit / 60),
      });
    default:
      return null;
  }
}

/** A write the planner is asked about first, and the text they typed for it. */
interface Asking {
  write: Extract<CellEdit, { kind: 'create' | 'update' }>;
  text: string;
}

/**
 * Carrying out what a cell's or a listed entry's edit plans: say why it is not written, ask
 * about a day far over the schedule first, or write it. `done` runs once the text typed is
 * settled (written, refused, unchanged); `correct` when the planner chose to correct it.
 */
function useCellEdits(onWrite: SheetCellProps['onWrite'], onProblem: SheetCellProps['onProblem'], done: () => void, correct: () => void) {
  const t = useT();
  const [saving, setSaving] = useState(false);
  const [asking, setAsking] = useState<Asking | null>(null);

  async function write(change: CellWrite) {
    setSaving(true);
    await onWrite(change);
    setSaving(false);
    done();
  }

  /** Runs `edit`; answers whether the planner is to choose an entry in the cell's list instead. */
  async function run(edit: CellEdit, text: string): Promise<'choose' | null> {
    const problem = editProblem(edit, text, t);
    if (problem) onProblem(problem);
    if (edit.kind === 'create' || edit.kind === 'update') {
      if (edit.ask) setAsking({ write: edit, text });
      else await write(edit);
    } else if (edit.kind === 'delete') await write(edit);
    else done();
    return edit.kind === 'choose' ? 'choose' : null;
  }

  const question = asking && (
    <DayQuestionDialog
      asking={asking}
      onBook={() => {
        setAsking(null);
        void write(asking.write);
      }}
      onCorrect={() => {
        setAsking(null);
        correct();
      }}
    />
  );
  return { run, busy: saving || asking !== null, question };
}

/**
 * A field where time is typed (a day's cell, or one of its listed entries): the text typed so
 * far (null: none, show the booked time), and its edits. Corrected, the typed text stays in the
 * field, selected, to be typed over.
 */
function useTypedTime(onWrite: SheetCellProps['onWrite'], onProblem: SheetCellProps['onProblem']) {
  const [text, setText] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const edits = useCellEdits(
    onWrite,
    onProblem,
    () => setText(null),
    () => requestAnimationFrame(() => input.current?.select()),
  );
  return { text, setText, input, edits };
}

export function SheetCell({ cell, label, sheet, onWrite, onProblem, closedTitle }: SheetCellProps) {
  const t = useT();
  const [listOpen, setListOpen] = useState(false);
  const { text, setText, input, edits } = useTypedTime(onWrite, onProblem);
  const only = cell.entries.length === 1 ? cell.entries[0]! : null;
  const overlapping = cell.entries.some((entry) => (entry.overlaps?.length ?? 0) > 0);
  const overlapMark = overlapping && (
    <span className="sheet-cell__overlap" role="img" aria-label={t('week.overlap')} title={t('week.overlap')}>
      <TriangleAlert aria-hidden="true" size={12} />
    </span>
  );

  if (closedTitle) {
    return (
      <div className="sheet-cell sheet-cell--closed">
        <input
          className="sheet-cell__input"
          aria-label={label}
          disabled
          title={closedTitle}
          value={formatHours(cell.minutes, true)}
          readOnly
        />
      </div>
    );
  }

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
          <CellEntries label={label} cell={cell} sheet={sheet} onWrite={onWrite} onProblem={onProblem} onClose={() => setListOpen(false)} />
        )}
      </div>
    );
  }

  const frozen = only?.locked ? 'locked' : only?.running ? 'running' : null;

  async function commit() {
    if (text === null || edits.busy) return;
    if ((await edits.run(planCellEdit(cell, text, sheet), text)) === 'choose') setListOpen(true);
  }

  return (
    <div className={frozen ? `sheet-cell sheet-cell--${frozen}` : 'sheet-cell'}>
      <input
        ref={input}
        className="sheet-cell__input"
        aria-label={label}
        inputMode="decimal"
        autoComplete="off"
        readOnly={frozen !== null || edits.busy}
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
      {edits.question}
    </div>
  );
}

/** "Book 14:00 on Monday 7 December?": the day's new total against the person's schedule. */
function DayQuestionDialog({ asking, onBook, onCorrect }: { asking: Asking; onBook(): void; onCorrect(): void }) {
  const t = useT();
  const { write, text } = asking;
  const question = write.ask!;
  const day = formatDay(question.date, t.locale, { weekday: 'long', day: 'numeric', month: 'long' });
  const hours = formatHours(parseDuration(text) ?? 0);
  return (
    <Modal title={t('week.askTitle', { hours, day })} closeLabel={t('common.close')} onClose={onCorrect} className="day-question">
      <p>
        {question.expected === null
          ? t('week.askLongDay', { day, total: formatHours(question.total) })
          : t('week.askOverSchedule', {
              day,
              total: formatHours(question.total),
              over: formatHours(question.total - question.expected),
              expected: formatHours(question.expected),
            })}
      </p>
      <div className="day-question__actions">
        <button type="button" className="button" autoFocus onClick={onCorrect}>
          {t('week.askCorrect')}
        </button>
        <button type="button" className="button button--primary" onClick={onBook}>
          {t('week.askBook', { hours })}
        </button>
      </div>
    </Modal>
  );
}

interface CellEntriesProps extends Omit<SheetCellProps, 'onProblem'> {
  onProblem(message: string): void;
  onClose(): void;
}

/** The entries of a cell with more than one (or one over midnight): each its own duration, or delete. */
function CellEntries({ label, cell, sheet, onWrite, onProblem, onClose }: CellEntriesProps) {
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
          <CellEntry key={entry.id} entry={entry} sheet={sheet} onWrite={onWrite} onProblem={onProblem} />
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
  sheet,
  onWrite,
  onProblem,
}: {
  entry: SheetEntry;
  sheet: SheetContext;
  onWrite: SheetCellProps['onWrite'];
  onProblem(message: string): void;
}) {
  const t = useT();
  const { text, setText, input, edits } = useTypedTime(onWrite, onProblem);
  const minutes = entryMinutes(entry, sheet.now);
  const time = (instant: string) => formatTime(instant, t.locale, sheet.timeZone);
  const span = `${time(entry.start)}–${entry.end ? time(entry.end) : '…'}`;
  const frozen = entry.locked || entry.running;

  async function commit() {
    if (text === null || edits.busy) return;
    const typed = parseDuration(text);
    await edits.run(typed === null ? { kind: 'invalid', reason: 'not-a-duration' } : planEntryChange(entry, typed, sheet), text);
  }

  return (
    <li className="sheet-cell__entry">
      <span className="sheet-cell__span">{span}</span>
      <input
        ref={input}
        className="sheet-cell__input"
        aria-label={t('week.entryDuration', { span })}
        readOnly={frozen || edits.busy}
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
      {edits.question}
    </li>
  );
}
