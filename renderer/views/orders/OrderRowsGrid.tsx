/**
 * The rows of an order as a spreadsheet-like grid. One cell is active (it alone is in the Tab
 * order); arrows, Home/End and Tab move it; Enter, F2, a double click or typing starts editing
 * (Delete starts it with the cell emptied).
 * While editing, Enter saves and goes down, Tab saves and goes right, Esc cancels, and leaving
 * the input saves. Each save is a PUT of that one field; when the API refuses it (422) the
 * cell stays in editing with the API's message under it.
 *
 * A block of cells pasted from a spreadsheet adds rows — columns in the grid's order — in one
 * write, so either every pasted row is added or none is and the problems are listed per row.
 */
import { useEffect, useId, useRef, useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import { fieldErrors } from '../../api/client.js';
import { useFieldWording } from '../../api/field-labels.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { useT } from '../../i18n/index.js';
import { maxLimit } from '../../../shared/list.js';
import { moveCell, navigationKeys, type CellPosition, type KeyMove } from './grid-navigation.js';
import { cellLabel, columnTitle, editText, orderRowColumns, sameValue, valueFromText } from './order-row-columns.js';
import { useRowChoices } from './order-lookups.js';
import { useAddOrderRow, useDeleteOrderRow, useOrderRows, useUpdateOrderRow, useWriteOrderRows } from './order-rows-api.js';
import { OrderRowActions } from './OrderRowActions.js';
import { OrderRowCell } from './OrderRowCell.js';
import { duplicateWrites } from './row-duplicate.js';
import { isCellBlock, parseSpreadsheetText, pasteProblems, rowsFromPaste } from './row-paste.js';

interface Editing {
  rowId: string;
  col: number;
  draft: string;
}

type PasteReport = { added: number } | { problems: string[] } | null;

const cellKey = (rowId: string, col: number) => `${rowId}:${col}`;

export function OrderRowsGrid({ orderId }: { orderId: string }) {
  const t = useT();
  const wording = useFieldWording('order_row');
  const rowsQuery = useOrderRows(orderId);
  const rows = rowsQuery.data?.data ?? [];
  const choices = useRowChoices();
  const update = useUpdateOrderRow(orderId);
  const add = useAddOrderRow(orderId);
  const remove = useDeleteOrderRow(orderId);
  const writeRows = useWriteOrderRows(orderId);

  const [active, setActive] = useState<CellPosition>({ row: 0, col: 0 });
  const [editing, setEditingState] = useState<Editing | null>(null);
  // Mirrors `editing` for the input's blur, which may fire after Esc or Enter already ended it.
  const editingRef = useRef<Editing | null>(null);
  // Enter and then a click elsewhere must not send the same save twice.
  const savingRef = useRef(false);
  const [cellErrors, setCellErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<unknown>(null);
  const [pasteReport, setPasteReport] = useState<PasteReport>(null);
  const [focusRequest, setFocusRequest] = useState(0);
  const [newRowId, setNewRowId] = useState<string | null>(null);
  const tableRef = useRef<HTMLTableElement>(null);
  const gridId = useId();
  const titleId = `${gridId}-title`;
  const hintId = `${gridId}-hint`;

  const size = { rows: rows.length, cols: orderRowColumns.length };
  // Rows may have been deleted elsewhere since the cell was activated.
  const activeCell = { row: Math.min(active.row, Math.max(0, rows.length - 1)), col: active.col };
  const activeRow = rows[activeCell.row];
  const busy = add.isPending || remove.isPending || writeRows.isPending;

  function setEditing(next: Editing | null) {
    editingRef.current = next;
    setEditingState(next);
  }

  function activate(cell: CellPosition, focus = true) {
    setActive(cell);
    if (focus) setFocusRequest((n) => n + 1);
  }

  // Only a new request moves focus (to the active cell, or to its input while it is edited);
  // re-renders for other reasons leave focus where the planner put it.
  useEffect(() => {
    if (focusRequest === 0) return;
    const cell = tableRef.current?.querySelector<HTMLElement>(`[data-cell="${activeCell.row}:${activeCell.col}"]`);
    (cell?.querySelector<HTMLElement>('input, select') ?? cell)?.focus();
  }, [focusRequest]);

  // A row just added is where the planner goes on typing.
  useEffect(() => {
    if (!newRowId) return;
    const index = rows.findIndex((row) => row.id === newRowId);
    if (index === -1) return;
    setNewRowId(null);
    activate({ row: index, col: 0 });
  }, [rows, newRowId]);

  function setCellError(key: string, message: string | null) {
    setCellErrors((errors) => {
      const { [key]: _dropped, ...rest } = errors;
      return message ? { ...rest, [key]: message } : rest;
    });
  }

  function startEditing(draft?: string) {
    if (!activeRow) return;
    const column = orderRowColumns[activeCell.col]!;
    setFailure(null);
    setEditing({ rowId: activeRow.id, col: activeCell.col, draft: draft ?? editText(activeRow, column) });
  }

  function cancelEditing() {
    const current = editingRef.current;
    if (current) setCellError(cellKey(current.rowId, current.col), null);
    setEditing(null);
    setFocusRequest((n) => n + 1);
  }

  /** Saves the cell being edited; then moves as `then` says (null: stay, and keep focus where it went). */
  async function commit(then: KeyMove | null) {
    const current = editingRef.current;
    if (!current || savingRef.current) return;
    const rowIndex = rows.findIndex((row) => row.id === current.rowId);
    const row = rows[rowIndex];
    const column = orderRowColumns[current.col]!;
    const key = cellKey(current.rowId, current.col);
    const finish = () => {
      setCellError(key, null);
      if (editingRef.current === current) setEditing(null);
      if (then) activate(moveCell({ row: rowIndex, col: current.col }, then, size) ?? { row: rowIndex, col: current.col });
    };
    if (!row) {
      setEditing(null);
      return;
    }
    const value = valueFromText(column, current.draft);
    if (sameValue(row[column.field], value)) return finish();
    savingRef.current = true;
    try {
      await update.mutateAsync({ rowId: row.id, changes: { [column.field]: value } });
      finish();
    } catch (error) {
      const message = fieldErrors(error, wording)[column.field];
      if (message) setCellError(key, message);
      else setFailure(error);
      // The refused text stays in its cell to be corrected, even if focus went elsewhere.
      if (!editingRef.current) setEditing(current);
      activate({ row: rowIndex, col: current.col });
    } finally {
      savingRef.current = false;
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLTableElement>) {
    const move = { key: event.key, shift: event.shiftKey, ctrl: event.ctrlKey || event.metaKey };
    if (editingRef.current) {
      if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        cancelEditing();
      } else if (event.key === 'Enter' || event.key === 'Tab') {
        event.preventDefault();
        void commit(move);
      }
      return;
    }
    if (!(event.target instanceof HTMLElement) || event.target.getAttribute('role') !== 'gridcell' || !activeRow) return;
    if (navigationKeys.has(event.key)) {
      const next = moveCell(activeCell, move, size);
      if (next === null) return; // Tab out of the grid.
      event.preventDefault();
      activate(next);
    } else if (event.key === 'Enter' || event.key === 'F2') {
      event.preventDefault();
      startEditing();
    } else if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      startEditing('');
    } else if (event.key.length === 1 && !move.ctrl && !event.altKey) {
      // Typing replaces the value, as in a spreadsheet; a picker or date just opens.
      const kind = orderRowColumns[activeCell.col]!.kind;
      event.preventDefault();
      startEditing(kind === 'text' || kind === 'number' ? event.key : undefined);
    }
  }

  async function onPaste(event: ClipboardEvent<HTMLTableElement>) {
    const text = event.clipboardData.getData('text/plain');
    if (!isCellBlock(text)) {
      // One value: the input being edited takes it, or editing starts with it.
      if (editingRef.current || !activeRow) return;
      event.preventDefault();
      const kind = orderRowColumns[activeCell.col]!.kind;
      if (kind !== 'item' && kind !== 'activity') startEditing(text.trim());
      return;
    }
    event.preventDefault();
    const pasted = rowsFromPaste(parseSpreadsheetText(text), choices, t);
    if (pasted.problems.length > 0) return setPasteReport({ problems: pasted.problems });
    if (pasted.rows.length === 0) return;
    try {
      await writeRows.mutateAsync(pasted.rows);
      setPasteReport({ added: pasted.rows.length });
    } catch (error) {
      setPasteReport({ problems: pasteProblems(error, t) });
    }
  }

  async function addRow() {
    setFailure(null);
    try {
      setNewRowId((await add.mutateAsync({})).id);
    } catch (error) {
      setFailure(error);
    }
  }

  async function duplicateRow() {
    if (!activeRow) return;
    setFailure(null);
    try {
      await writeRows.mutateAsync(duplicateWrites(rows, activeCell.row));
      activate({ row: activeCell.row + 1, col: activeCell.col });
    } catch (error) {
      setFailure(error);
    }
  }

  async function deleteRow() {
    if (!activeRow) return;
    setFailure(null);
    try {
      await remove.mutateAsync(activeRow.id);
      activate(activeCell);
    } catch (error) {
      setFailure(error);
    }
  }

  return (
    <section className="rows-section" aria-labelledby={titleId}>
      <div className="rows-section__header">
        <h2 id={titleId} className="form-section__title">
          {t('orders.rows.title')}
        </h2>
        <OrderRowActions
          rowNumber={activeRow ? activeCell.row + 1 : null}
          busy={busy}
          onAdd={() => void addRow()}
          onDuplicate={() => void duplicateRow()}
          onDelete={() => void deleteRow()}
        />
      </div>
      <p id={hintId} className="muted rows-section__hint">
        {t('orders.rows.hint')}
      </p>
      {failure !== null && <ErrorNotice error={failure} />}
      {rowsQuery.isError && <ErrorNotice error={rowsQuery.error} onRetry={() => void rowsQuery.refetch()} />}
      <div className="rows-grid__scroller">
        <table
          ref={tableRef}
          role="grid"
          aria-labelledby={titleId}
          aria-describedby={hintId}
          aria-rowcount={rows.length + 1}
          className="rows-grid"
          onKeyDown={onKeyDown}
          onPaste={(event) => void onPaste(event)}
        >
          <thead>
            <tr>
              <th scope="col" className="rows-grid__number">
                <span className="visually-hidden">{t('orders.rows.row')}</span>
              </th>
              {orderRowColumns.map((column) => (
                <th key={column.field} scope="col" className={`rows-grid__head rows-grid__cell--${column.kind}`}>
                  {columnTitle(column, t)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row, rowIndex) => (
              <tr key={row.id} aria-rowindex={rowIndex + 2}>
                <th scope="row" className="rows-grid__number">
                  {rowIndex + 1}
                </th>
                {orderRowColumns.map((column, colIndex) => {
                  const key = cellKey(row.id, colIndex);
                  const isEditing = editing?.rowId === row.id && editing.col === colIndex;
                  const isActive = activeCell.row === rowIndex && activeCell.col === colIndex;
                  return (
                    <OrderRowCell
                      key={column.field}
                      row={row}
                      rowIndex={rowIndex}
                      colIndex={colIndex}
                      column={column}
                      label={cellLabel(rowIndex, column, t)}
                      active={isActive}
                      draft={isEditing ? editing.draft : null}
                      error={cellErrors[key]}
                      errorId={`${gridId}-error-${rowIndex}-${colIndex}`}
                      choices={choices}
                      onActivate={() => activate({ row: rowIndex, col: colIndex })}
                      onStartEditing={() => {
                        setActive({ row: rowIndex, col: colIndex });
                        setEditing({ rowId: row.id, col: colIndex, draft: editText(row, column) });
                      }}
                      onDraft={(draft) => setEditing({ rowId: row.id, col: colIndex, draft })}
                      onLeaveEditor={() => void commit(null)}
                    />
                  );
                })}
              </tr>
            ))}
            {rowsQuery.data && rows.length === 0 && (
              <tr>
                {/* Focusable, so a block of cells can be pasted into an empty grid. */}
                <td role="gridcell" tabIndex={0} colSpan={orderRowColumns.length + 1} className="rows-grid__empty muted">
                  {t('orders.rows.empty')}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      {!rowsQuery.data && !rowsQuery.isError && (
        <p className="loading" role="status">
          {t('orders.rows.loading')}
        </p>
      )}
      {rowsQuery.data && rowsQuery.data.count > maxLimit && (
        <p className="muted">{t('orders.rows.cutOff', { shown: rows.length, count: rowsQuery.data.count })}</p>
      )}
      <PasteOutcome report={pasteReport} />
    </section>
  );
}

function PasteOutcome({ report }: { report: PasteReport }) {
  const t = useT();
  if (!report) return null;
  if ('added' in report) {
    return (
      <p className="muted" role="status">
        {t.count('orders.paste.added', report.added)}
      </p>
    );
  }
  return (
    <div className="notice notice--error" role="alert">
      <div>
        <p>{t.count('orders.paste.refused', report.problems.length)}</p>
        <ul className="paste-problems">
          {report.problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      </div>
    </div>
  );
}
