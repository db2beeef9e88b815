/**
 * One cell of the order-rows grid: its value, named "Row 1 quantity: 3", or — while it is being
 * edited — an input named like the cell ("Row 1 quantity"), with the API's message for it underneath. Keys are handled
 * by the grid; the cell only reports clicks, typing and leaving the input.
 */
import type { OrderRow } from '../../../shared/resources/order-row.js';
import { CalendarDate } from '../../components/CalendarDate.js';
import { useT } from '../../i18n/index.js';
import { ChoiceSelect } from './ChoiceSelect.js';
import { UnitHint, UnitSelect, unitName } from './UnitSelect.js';
import type { OrderRowColumn } from './order-row-columns.js';
import type { RowChoices } from './order-lookups.js';

interface OrderRowCellProps {
  row: OrderRow;
  rowIndex: number;
  colIndex: number;
  column: OrderRowColumn;
  label: string;
  active: boolean;
  /** The text being typed, when this cell is being edited. */
  draft: string | null;
  error: string | undefined;
  errorId: string;
  choices: RowChoices;
  onActivate: () => void;
  onStartEditing: () => void;
  onDraft: (text: string) => void;
  onLeaveEditor: () => void;
}

export function OrderRowCell(props: OrderRowCellProps) {
  const { row, rowIndex, colIndex, column, label, active, draft, error, errorId } = props;
  const editing = draft !== null;
  const classes = ['rows-grid__cell', `rows-grid__cell--${column.kind}`];
  if (active) classes.push('rows-grid__cell--active');
  if (error) classes.push('rows-grid__cell--invalid');

  // Not being edited, the cell is named by its label and its visible text ("Row 1 quantity: 3"),
  // so a screen reader reads both and the name holds what is on screen (WCAG 2.5.3).
  const labelId = `${errorId}-label`;
  const valueId = `${errorId}-value`;
  return (
    <td
      role="gridcell"
      aria-label={editing ? label : undefined}
      aria-labelledby={editing ? undefined : `${labelId} ${valueId}`}
      aria-invalid={error ? true : undefined}
      aria-describedby={error && !editing ? errorId : undefined}
      tabIndex={active && !editing ? 0 : -1}
      data-cell={`${rowIndex}:${colIndex}`}
      className={classes.join(' ')}
      onClick={editing ? undefined : props.onActivate}
      onDoubleClick={editing ? undefined : props.onStartEditing}
    >
      {editing ? (
        <CellEditor {...props} draft={draft} />
      ) : (
        <>
          <span id={labelId} hidden>
            {label}:
          </span>
          <span id={valueId}>
            <CellValue row={row} column={column} choices={props.choices} />
          </span>
        </>
      )}
      {error && (
        <span id={errorId} className="rows-grid__error">
          {error}
        </span>
      )}
    </td>
  );
}

function CellValue({ row, column, choices }: { row: OrderRow; column: OrderRowColumn; choices: RowChoices }) {
  const value = row[column.field];
  if (value === null || value === undefined || value === '') return null;
  if (column.kind === 'date') return <CalendarDate value={String(value)} />;
  if (column.kind === 'unit') return <UnitCellValue unit={String(value)} />;
  if (column.kind === 'item' || column.kind === 'activity') {
    const list = choices[column.field as 'item_id' | 'activity_id'];
    return <>{list.choices.find((choice) => choice.id === value)?.name ?? '…'}</>;
  }
  return <>{String(value)}</>;
}

function UnitCellValue({ unit }: { unit: string }) {
  const t = useT();
  return (
    <>
      {unitName(t, unit)}
      <UnitHint unit={unit} />
    </>
  );
}

function CellEditor({ column, label, draft, error, errorId, choices, onDraft, onLeaveEditor }: OrderRowCellProps & { draft: string }) {
  const t = useT();
  const described = error ? { 'aria-invalid': true as const, 'aria-describedby': errorId } : {};
  if (column.kind === 'unit') {
    return (
      <UnitSelect
        {...described}
        aria-label={label}
        className="rows-grid__editor"
        autoFocus
        value={draft}
        onChange={onDraft}
        onBlur={onLeaveEditor}
      />
    );
  }
  if (column.kind === 'item' || column.kind === 'activity') {
    const field = column.field as 'item_id' | 'activity_id';
    return (
      <ChoiceSelect
        {...described}
        aria-label={label}
        className="rows-grid__editor"
        autoFocus
        value={draft}
        list={choices[field]}
        noneLabel={t(`orders.none.${field}`)}
        onChange={onDraft}
        onBlur={onLeaveEditor}
      />
    );
  }
  return (
    <input
      {...described}
      aria-label={label}
      className="rows-grid__editor"
      // Numbers are typed as text: what cannot be read as a number goes to the API as typed,
      // and its 422 says why beside the cell.
      type={column.kind === 'date' ? 'date' : 'text'}
      inputMode={column.kind === 'number' ? 'decimal' : undefined}
      autoComplete="off"
      autoFocus
      value={draft}
      onFocus={(event) => {
        // The caret goes after the text, as in a spreadsheet; a date input has no caret.
        const input = event.currentTarget;
        if (input.type === 'text') input.setSelectionRange(input.value.length, input.value.length);
      }}
      onChange={(event) => onDraft(event.target.value)}
      onBlur={onLeaveEditor}
    />
  );
}
