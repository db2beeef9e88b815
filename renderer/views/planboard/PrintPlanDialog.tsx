/**
 * "Print the plan": a week or a period of the board, every stage or one, as the PDF the API
 * makes (docs/API.md "Printing the plan"): stages as rows, days as columns (non-workdays and
 * company holidays shaded and named), card names in full with what each is for, its hours
 * and its people, page numbers. "Save PDF…" saves it through the desktop's save dialog, or as a
 * download in a browser.
 *
 * The preview draws the very pages of that PDF to scale, from the API's `format=json` answer
 * (the same layout, as positions): a PDF viewer in a frame would need plugins and framed
 * `blob:` pages, which the app's window does not allow.
 */
import { useQuery } from '@tanstack/react-query';
import { Fragment, useState, type CSSProperties } from 'react';
import { addDays, bucketStart, daysBetween } from '../../../shared/dates.js';
import type { PrintPreview, PrintPreviewPage } from '../../../shared/print-preview.js';
import { describeError, send, sendRequest } from '../../api/client.js';
import { apiPath } from '../../api/paths.js';
import { useApi } from '../../api/provider.js';
import { Field } from '../../components/Field.js';
import { Modal } from '../../components/Modal.js';
import { useT } from '../../i18n/index.js';
import { useNotices } from '../../state/notices.js';
import '../../styles/plan-reading.css';
import { exportFileFrom, saveExportFile } from '../time/export-file.js';
import { usePrintPlan } from './print-plan-state.js';

/** The API's limit (docs/API.md "Printing the plan"). */
const maxPrintDays = 62;
const isDate = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);

interface PrintPlanDialogProps {
  boardId: string;
  stages: readonly { id: string; name: string }[];
  today: string;
}

export function PrintPlanDialog({ boardId, stages, today }: PrintPlanDialogProps) {
  const open = usePrintPlan((state) => state.open);
  const setOpen = usePrintPlan((state) => state.setOpen);
  if (!open) return null;
  return <PrintPlanForm boardId={boardId} stages={stages} today={today} onClose={() => setOpen(false)} />;
}

function PrintPlanForm({ boardId, stages, today, onClose }: PrintPlanDialogProps & { onClose(): void }) {
  const t = useT();
  const { transport } = useApi();
  const notify = useNotices((state) => state.notify);
  const monday = bucketStart(today, 'week');
  const [start, setStart] = useState(monday);
  const [end, setEnd] = useState(addDays(monday, 6));
  const [stageId, setStageId] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const validRange = isDate(start) && isDate(end) && end >= start && daysBetween(start, end) < maxPrintDays;
  const query = { start, end, ...(stageId ? { stage_id: stageId } : {}) };
  const path = apiPath`/v1/board/${boardId}/print`;

  const preview = useQuery({
    queryKey: ['board', 'print', boardId, start, end, stageId],
    queryFn: () => send<PrintPreview>(transport, { method: 'GET', path, query: { ...query, format: 'json' } }),
    enabled: validRange,
  });

  async function save() {
    setSaving(true);
    setProblem(null);
    try {
      const response = await sendRequest(transport, { method: 'GET', path, query });
      const outcome = await saveExportFile(exportFileFrom(response, 'pdf', `plan-${start}-${end}.pdf`), 'pdf');
      if (outcome.kind === 'saved') notify(t('print.saved', { file: outcome.fileName }));
      else if (outcome.kind === 'downloaded') notify(t('print.downloaded', { file: outcome.fileName }));
      else if (outcome.kind === 'failed') setProblem(t('print.failed', { problem: outcome.message }));
    } catch (error) {
      setProblem(t('print.failed', { problem: describeError(error) }));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal title={t('print.title')} closeLabel={t('common.close')} onClose={onClose} className="print-plan">
      <div className="print-plan__choices">
        <Field label={t('print.start')}>
          {(control) => <input {...control} type="date" value={start} onChange={(event) => setStart(event.target.value)} />}
        </Field>
        <Field label={t('print.end')} error={validRange ? undefined : t('print.badRange')}>
          {(control) => <input {...control} type="date" value={end} onChange={(event) => setEnd(event.target.value)} />}
        </Field>
        <Field label={t('print.stage')}>
          {(control) => (
            <select {...control} value={stageId} onChange={(event) => setStageId(event.target.value)}>
              <option value="">{t('print.wholeBoard')}</option>
              {stages.map((stage) => (
                <option key={stage.id} value={stage.id}>
                  {stage.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <button type="button" className="button button--primary" disabled={!validRange || saving} onClick={() => void save()}>
          {t('print.save')}
        </button>
      </div>
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
      <section className="print-plan__preview" aria-label={t('print.previewFrame')}>
        {preview.isError ? (
          <p className="form-error" role="alert">
            {t('print.failed', { problem: describeError(preview.error) })}
          </p>
        ) : preview.data && validRange ? (
          preview.data.pages.map((page) => <PreviewPage key={page.number} preview={preview.data} page={page} />)
        ) : (
          <p className="muted" role="status">
            {validRange ? t('print.previewLoading') : t('print.previewHint')}
          </p>
        )}
      </section>
    </Modal>
  );
}

/** One page as the PDF draws it, to scale: positions in points become shares of the page. */
function PreviewPage({ preview, page }: { preview: PrintPreview; page: PrintPreviewPage }) {
  const t = useT();
  const { width, height } = preview.page;
  const box = (x: number, y: number, w: number, h: number): CSSProperties => ({
    left: `${(x / width) * 100}%`,
    top: `${(y / height) * 100}%`,
    width: `${(w / width) * 100}%`,
    height: `${(h / height) * 100}%`,
  });
  const { table } = preview;
  const headerHeight = table.bodyTop - table.top;
  const last = page.stages[page.stages.length - 1];
  const bottom = last ? last.y + last.height : table.bodyTop;
  return (
    <figure className="print-plan__page" style={{ aspectRatio: `${width} / ${height}` }} aria-label={`${page.number} / ${page.of}`}>
      <div className="print-plan__title" style={box(table.left, table.top - 30, table.width, 20)}>
        {preview.board} — {preview.scope === 'whole board' ? t('print.wholeBoard') : preview.scope}
      </div>
      {page.days.map((day, i) =>
        // The board's non-workdays and company holidays shaded down to the last stage, as printed.
        !day.workday || day.holiday ? (
          <div
            key={`closed-${day.date}`}
            className="print-plan__closed"
            style={box(page.dayX[i]!, table.top, page.dayWidth, bottom - table.top)}
          />
        ) : null,
      )}
      {page.days.map((day, i) => (
        <div key={day.date} className="print-plan__day" style={box(page.dayX[i]!, table.top, page.dayWidth, headerHeight)}>
          {day.label}
          {day.holiday && <span className="print-plan__holiday">{day.holiday}</span>}
        </div>
      ))}
      {page.stages.map((stage) => (
        <Fragment key={`${stage.id}-${stage.y}`}>
          <div className="print-plan__stage" style={box(table.left, stage.y, table.stageColumn, stage.height)}>
            {stage.name}
          </div>
          {stage.cards.map((card) => (
            <div key={card.id} className="print-plan__card" style={box(card.x, card.y, card.width, card.height)} title={card.name}>
              {card.lines.map((line, i) => (
                <span key={i} className={i < card.nameLines ? 'print-plan__card-name' : undefined}>
                  {line}
                </span>
              ))}
            </div>
          ))}
        </Fragment>
      ))}
      <figcaption className="print-plan__footer" style={box(table.left, height - 40, table.width, 12)}>
        {page.number} / {page.of}
      </figcaption>
    </figure>
  );
}
