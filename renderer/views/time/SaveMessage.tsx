/**
 * What became of a saved report file, in words: saved where the planner chose, downloaded, or
 * why not. A canceled save says nothing. The export dialog and the payroll summary show it.
 */
import { useT } from '../../i18n/index.js';
import type { SaveOutcome } from './export-file.js';

export function SaveMessage({ outcome }: { outcome: SaveOutcome }) {
  const t = useT();
  if (outcome.kind === 'canceled') return null;
  if (outcome.kind === 'failed') {
    return (
      <p className="form-error" role="alert">
        {outcome.message}
      </p>
    );
  }
  return (
    <p className="export-dialog__done" role="status">
      {t(outcome.kind === 'saved' ? 'export.saved' : 'export.downloaded', { file: outcome.fileName })}
    </p>
  );
}
