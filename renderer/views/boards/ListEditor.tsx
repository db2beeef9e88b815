/**
 * The one editor of an ordered list of a board's parts in its setup form (stages, statuses,
 * labels): a titled section with its rows, each row's own columns, move up, move down and
 * remove, and an "Add …" button. What differs per list — its columns, its texts, whether a row
 * is one line or a card, a notice over the rows — comes in a `ListSpec` (board-lists.tsx).
 *
 * Errors are found by the row's path in the saved body (`stages.1.name`, see board-draft.ts);
 * every control's label starts with the row's place in hidden words ("Stage 2 Name"), so each
 * control has a unique name while the row shows only "Name" (components/Field.tsx).
 */
import { Fragment, useId, type ReactNode } from 'react';
import { FieldError } from '../../components/FieldError.js';
import { useT, type MessageKey } from '../../i18n/index.js';
import { moveItem, replaceAt } from './board-draft.js';
import { RowControls } from './RowControls.js';

/** What one column of one row gets to show and change its part of the row. */
export interface RowCell<Row> {
  row: Row;
  /** "Stage 2 ": the hidden words that start each of the row's labels. */
  place: string;
  /** The error the API gave for one field of this row, e.g. `error('name')`. */
  error: (field: string) => string | undefined;
  change: (patch: Partial<Row>) => void;
}

/** One column of a list: the control (or group of controls) it shows in each row. */
export type ListColumn<Row> = (cell: RowCell<Row>) => ReactNode;

/** The texts of a list, as keys of the catalogues; `place` and `row` take `{number}`. */
export interface ListTexts {
  /** The section's title, also the list's name: "Stages". */
  title: MessageKey;
  /** Shown when there are no rows. */
  none: MessageKey;
  /** The button that adds a row: "Add stage". */
  add: MessageKey;
  /** The row in a label: "Stage 2". */
  place: MessageKey;
  /** The row in a sentence of the row controls: "stage 2". */
  row: MessageKey;
}

/** Rows have a `key` for React that stays the same while the row moves. */
export interface ListSpec<Row extends { key: string }> {
  /** The list's name in the saved body and its error paths: `stages`. */
  set: string;
  texts: ListTexts;
  newRow: () => Row;
  columns: readonly ListColumn<Row>[];
  /** `inline`: a row is one line with its controls last; `card`: a card titled by its place, its columns in a grid. */
  layout: 'inline' | 'card';
  /** Said over a list that has rows, e.g. what a missing entry status means. */
  notice?: (rows: readonly Row[]) => ReactNode;
}

interface ListEditorProps<Row extends { key: string }> {
  list: ListSpec<Row>;
  rows: Row[];
  onChange: (rows: Row[]) => void;
  errors: Record<string, string>;
}

export function ListEditor<Row extends { key: string }>({ list, rows, onChange, errors }: ListEditorProps<Row>) {
  const titleId = useId();
  const t = useT();
  const { set, texts, layout } = list;
  return (
    <section className="form-section" aria-labelledby={titleId}>
      <h2 id={titleId} className="form-section__title">
        {t(texts.title)}
      </h2>
      <FieldError id={`${titleId}-error`} message={errors[set]} />
      {rows.length === 0 ? <p className="muted">{t(texts.none)}</p> : list.notice?.(rows)}
      <ol className="row-list">
        {rows.map((row, index) => {
          const number = index + 1;
          const title = t(texts.place, { number });
          const cell: RowCell<Row> = {
            row,
            place: `${title} `,
            error: (field) => errors[`${set}.${index}.${field}`],
            change: (patch) => onChange(replaceAt(rows, index, patch)),
          };
          const cells = list.columns.map((column, i) => <Fragment key={i}>{column(cell)}</Fragment>);
          const controls = (
            <RowControls
              row={t(texts.row, { number })}
              index={index}
              count={rows.length}
              onMove={(to) => onChange(moveItem(rows, index, to))}
              onRemove={() => onChange(rows.filter((_, i) => i !== index))}
            />
          );
          return layout === 'inline' ? (
            <li key={row.key} className="row-card row-card--inline">
              {cells}
              {controls}
            </li>
          ) : (
            <li key={row.key} className="row-card">
              <div className="row-card__header">
                <span className="row-card__title">{title}</span>
                {controls}
              </div>
              <div className="form-grid">{cells}</div>
            </li>
          );
        })}
      </ol>
      <div>
        <button type="button" className="button" onClick={() => onChange([...rows, list.newRow()])}>
          {t(texts.add)}
        </button>
      </div>
    </section>
  );
}
