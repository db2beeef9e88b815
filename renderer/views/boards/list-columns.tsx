/**
 * The columns the board's lists share (ListEditor.tsx): a name, a colour, a whole number, a
 * checkbox. Each is labelled with the row's place in hidden words first ("Stage 2 Delay days")
 * and shows the API's error for its field. A column is typed by the fields it reads, so any
 * row that has them can use it. The cells are components of their own, declared once here, so
 * a list whose columns are made again at every render keeps its inputs (and their focus).
 */
import type { ReactNode } from 'react';
import { BoardColorSelect } from '../../components/BoardColorSelect.js';
import type { BoardColor } from '../../components/board-colors.js';
import { CheckboxField, Field, Hidden, type ControlProps } from '../../components/Field.js';
import { useT, type MessageKey } from '../../i18n/index.js';
import type { ListColumn, RowCell } from './ListEditor.js';

interface RowFieldProps {
  /** "Stage 2 ": said before the label, hidden. */
  place: string;
  label: string;
  error: string | undefined;
  className?: string;
  children: (control: ControlProps) => ReactNode;
}

/** A labelled control of one row of a list, or of a part of a row (a new activity in a stage). */
export function RowField({ place, label, error, className, children }: RowFieldProps) {
  return (
    <Field label={<PlaceLabel place={place} label={label} />} error={error} className={className}>
      {children}
    </Field>
  );
}

/** "Stage 2 " hidden, then the label shown: the name of a control of one row. */
export function PlaceLabel({ place, label }: { place: string; label: string }) {
  return (
    <>
      <Hidden>{place}</Hidden>
      {label}
    </>
  );
}

/** A cell's props: the row and what its column was made with. */
interface CellProps<Row, Options> {
  cell: RowCell<Row>;
  options: Options;
}

type Named = { id: string | null; name: string };
type NameOptions = { maxLength: number; className: string };

/** The row's name, at most `maxLength` characters; a row just added (no id yet) takes the focus. */
export function nameColumn(maxLength: number, className: string): ListColumn<Named> {
  return (cell) => <NameCell cell={cell} options={{ maxLength, className }} />;
}

function NameCell({ cell: { row, place, error, change }, options: { maxLength, className } }: CellProps<Named, NameOptions>) {
  const t = useT();
  return (
    <RowField place={place} label={t('boards.row.name')} error={error('name')} className={className}>
      {(control) => (
        <input
          {...control}
          value={row.name}
          maxLength={maxLength}
          autoComplete="off"
          // Only a row just added mounts after the form: it takes the focus for typing its name.
          autoFocus={row.id === null}
          onChange={(event) => change({ name: event.target.value })}
        />
      )}
    </RowField>
  );
}

type Coloured = { color: BoardColor };

/** The row's colour, one of the board colours. */
export const colorColumn: ListColumn<Coloured> = (cell) => <ColorCell cell={cell} />;

function ColorCell({ cell: { row, place, error, change } }: { cell: RowCell<Coloured> }) {
  const t = useT();
  return (
    <RowField place={place} label={t('boards.row.color')} error={error('color')}>
      {(control) => <BoardColorSelect {...control} value={row.color} onChange={(color) => change({ color })} />}
    </RowField>
  );
}

/** A patch of one field. */
function patchOf<K extends string, V>(field: K, value: V): Partial<Record<K, V>> {
  // A computed key widens to `string`; the object has exactly the one key `field`.
  return { [field]: value } as Partial<Record<K, V>>;
}

type FieldOptions<K> = { field: K; label: MessageKey };
type NumberOptions<K> = FieldOptions<K> & { min: number; max: number };

/** A whole number of the row between `min` and `max`, held as text while typed (see form-values.ts). */
export function numberColumn<K extends string>(
  field: K,
  label: MessageKey,
  range: { min: number; max: number },
): ListColumn<Record<K, string>> {
  return (cell) => <NumberCell cell={cell} options={{ field, label, ...range }} />;
}

function NumberCell<K extends string>({ cell: { row, place, error, change }, options }: CellProps<Record<K, string>, NumberOptions<K>>) {
  const t = useT();
  const { field, min, max } = options;
  return (
    <RowField place={place} label={t(options.label)} error={error(field)}>
      {(control) => (
        <input
          {...control}
          type="number"
          min={min}
          max={max}
          step={1}
          value={row[field]}
          onChange={(event) => change(patchOf(field, event.target.value))}
        />
      )}
    </RowField>
  );
}

/** A yes or no of the row, as a checkbox. */
export function checkboxColumn<K extends string>(field: K, label: MessageKey): ListColumn<Record<K, boolean>> {
  return (cell) => <CheckboxCell cell={cell} options={{ field, label }} />;
}

function CheckboxCell<K extends string>({ cell: { row, place, error, change }, options }: CellProps<Record<K, boolean>, FieldOptions<K>>) {
  const t = useT();
  return (
    <CheckboxField
      label={<PlaceLabel place={place} label={t(options.label)} />}
      checked={row[options.field]}
      error={error(options.field)}
      onChange={(checked) => change(patchOf(options.field, checked))}
    />
  );
}
