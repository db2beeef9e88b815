/**
 * "Waiting for PO-123, expected Tue 15 Dec" (docs/API.md "Material"): what a collection waits
 * for before the stage that needs it may start, in the backlog (one line, the rest in its
 * tooltip) and on the order screen. Nothing when it waits for nothing, or is not known yet.
 */
import type { CollectionMaterial } from '../../../shared/material.js';
import { useT } from '../../i18n/index.js';
import { materialLines } from './material.js';

export function MaterialLine({ material, className }: { material: CollectionMaterial | undefined; className: string }) {
  const t = useT();
  const lines = materialLines(material, t);
  if (lines.length === 0) return null;
  return (
    <div className={`material-line ${className}`} title={`${t('plan.material.title')}\n${lines.join('\n')}`} data-testid="material-waiting">
      <span aria-hidden="true">⏳ </span>
      {lines.join('; ')}
    </div>
  );
}
