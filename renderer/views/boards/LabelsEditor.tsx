/** The labels of a board in its setup form: names and colours planners tag cards with. */
import { useId } from 'react';
import { BoardColorSelect } from '../../components/BoardColorSelect.js';
import { Field, Hidden } from '../../components/Field.js';
import { FieldError } from '../../components/FieldError.js';
import { useT } from '../../i18n/index.js';
import { moveItem, newLabel, replaceAt, type LabelDraft } from './board-draft.js';
import { RowControls } from './RowControls.js';

interface LabelsEditorProps {
  labels: LabelDraft[];
  onChange: (labels: LabelDraft[]) => void;
  errors: Record<string, string>;
}

export function LabelsEditor({ labels, onChange, errors }: LabelsEditorProps) {
  const titleId = useId();
  const t = useT();
  return (
    <section className="form-section" aria-labelledby={titleId}>
      <h2 id={titleId} className="form-section__title">
        {t('boards.labels')}
      </h2>
      <FieldError id={`${titleId}-error`} message={errors.labels} />
      {labels.length === 0 && <p className="muted">{t('boards.labels.none')}</p>}
      <ol className="row-list">
        {labels.map((label, index) => {
          const place = `${t('boards.label.place', { number: index + 1 })} `;
          const path = `labels.${index}`;
          const change = (patch: Partial<LabelDraft>) => onChange(replaceAt(labels, index, patch));
          return (
            <li key={label.key} className="row-card row-card--inline">
              <Field
                label={
                  <>
                    <Hidden>{place}</Hidden>
                    {t('boards.row.name')}
                  </>
                }
                error={errors[`${path}.name`]}
                className="field--grow"
              >
                {(control) => (
                  <input
                    {...control}
                    value={label.name}
                    maxLength={100}
                    autoComplete="off"
                    autoFocus={label.id === null}
                    onChange={(event) => change({ name: event.target.value })}
                  />
                )}
              </Field>
              <Field
                label={
                  <>
                    <Hidden>{place}</Hidden>
                    {t('boards.row.color')}
                  </>
                }
                error={errors[`${path}.color`]}
              >
                {(control) => <BoardColorSelect {...control} value={label.color} onChange={(color) => change({ color })} />}
              </Field>
              <RowControls
                row={t('boards.label.row', { number: index + 1 })}
                index={index}
                count={labels.length}
                onMove={(to) => onChange(moveItem(labels, index, to))}
                onRemove={() => onChange(labels.filter((_, i) => i !== index))}
              />
            </li>
          );
        })}
      </ol>
      <div>
        <button type="button" className="button" onClick={() => onChange([...labels, newLabel()])}>
          {t('boards.labels.add')}
        </button>
      </div>
    </section>
  );
}
