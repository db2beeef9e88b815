/**
 * "What would it take?" (docs/API.md "What would it take?"): the overtime that would make a late
 * collection fit, in the planner's words, with the click that adds it as one command. One
 * component for every screen that offers it: the Exceptions screen, under a late order's
 * reason, and the planboard's plan dialog, under a plan that would end late.
 */
import type { WhatItTakes } from '../../../shared/why-late.js';
import { useT } from '../../i18n/index.js';
import { whatItTakesText } from './why-late-text.js';

interface OvertimeOfferProps {
  takes: WhatItTakes;
  /** The collection's name, for the undo step's description. */
  name: string;
  busy: boolean;
  className: string;
  onAdd(takes: WhatItTakes, description: string): void;
}

export function OvertimeOffer({ takes, name, busy, className, onAdd }: OvertimeOfferProps) {
  const t = useT();
  return (
    <span className={className} data-testid="what-it-takes">
      {whatItTakesText(takes, t)}{' '}
      <button
        type="button"
        className="button"
        disabled={busy}
        onClick={() => onAdd(takes, t('whyLate.addOvertimeAction', { hours: String(Math.round(takes.minutes / 6) / 10), name }))}
      >
        {t('whyLate.addOvertime')}
      </button>
    </span>
  );
}
