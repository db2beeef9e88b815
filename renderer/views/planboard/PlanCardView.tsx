/**
 * One card on the grid. Pure and memoized: it re-renders only when its own card record, place
 * or selection changes, so a drag or a scroll never re-renders the other cards. Pointer and
 * key handling sit on the grid (event delegation); the card only says which card it is
 * (`data-card-id`). Its resize edges are drawn by CSS (::before, ::after) and found by the
 * pointer's distance to the card's sides (`edgeAt`): two elements fewer per card.
 */
import { CalendarOff, Gauge, RotateCcw, TriangleAlert } from 'lucide-react';
import { createContext, memo, useContext, useLayoutEffect, useRef } from 'react';
import { boardColorHex, type BoardColor } from '../../components/board-colors.js';
import { useT } from '../../i18n/index.js';
import { longDate } from './date-geometry.js';
import { cardName } from '../../components/card-name.js';
import { warningText } from '../../components/warning-words.js';
import type { CollectionMaterial } from '../../../shared/material.js';
import { earlyCardWarning } from './material.js';
import type { CardSkills } from '../../../shared/skills.js';
import { skillWarning } from './skills.js';
import { formatDateTime } from '../../components/dates-format.js';
import { cardTitle, shownTitle, type PlanCard } from './plan-card.js';
import { cardTextWidth } from './text-width.js';

/**
 * What cards look up by id: the board's statuses, labels and stages, the resources, and the
 * cards with a change of the planner's overruled by a later one elsewhere (marked), the cards
 * a plan check after a sync found a problem with (marked), and the material of the collections whose cards start before it (material.ts, by card id).
 */
export interface CardLookups {
  statuses: ReadonlyMap<string, { name: string; color: BoardColor; exit?: boolean }>;
  labels: ReadonlyMap<string, { name: string; color: BoardColor }>;
  resources: ReadonlyMap<string, { name: string }>;
  stages: ReadonlyMap<string, { name: string }>;
  overruled: ReadonlySet<string>;
  planFindings: ReadonlySet<string>;
  materialEarly: ReadonlyMap<string, CollectionMaterial>;
  /** The cards whose people lack their skill (skills.ts, by card id). */
  skills: ReadonlyMap<string, CardSkills>;
}

export const CardLookupsContext = createContext<CardLookups>({
  statuses: new Map(),
  labels: new Map(),
  resources: new Map(),
  stages: new Map(),
  overruled: new Set(),
  planFindings: new Set(),
  materialEarly: new Map(),
  skills: new Map(),
});

interface PlanCardViewProps {
  card: PlanCard;
  left: number;
  top: number;
  width: number;
  height: number;
  selected: boolean;
  /** The keyboard cursor is on this card. */
  active: boolean;
  /** It starts or ends on a day the board does not work (non-workdays.ts). */
  offDay?: boolean;
  /** The start of the collection names every card of its row shares, left out when narrow. */
  shared?: string | undefined;
}

/**
 * What the floor reported, in words: who started the card and when (its timer runs), or who
 * finished it and when (it is in an exit status and their time on it has ended); null when
 * neither, or nobody is named.
 */
function floorWords(card: PlanCard, finished: boolean, t: ReturnType<typeof useT>): string | null {
  const last = card.time_tracking_last;
  if (!last?.user_name) return null;
  if (card.time_tracking_running && last.end === null)
    return t('planboard.card.startedBy', { name: last.user_name, time: formatDateTime(last.start, t.locale) });
  if (finished && last.end !== null)
    return t('planboard.card.finishedBy', { name: last.user_name, time: formatDateTime(last.end, t.locale) });
  return null;
}

export const PlanCardView = memo(function PlanCardView({
  card,
  left,
  top,
  width,
  height,
  selected,
  active,
  offDay = false,
  shared = '',
}: PlanCardViewProps) {
  const lookups = useContext(CardLookupsContext);
  const t = useT();
  const element = useRef<HTMLDivElement>(null);

  // A drag leaves its transform (and a resize its width) on the element until the card's new
  // place is rendered; drop them in the same frame, so the card never jumps back first.
  useLayoutEffect(() => {
    const el = element.current;
    if (!el) return;
    el.style.transform = '';
    el.style.width = `${width - 2}px`;
    el.classList.remove('is-dragging');
  }, [left, top, width]);

  const status = card.status_id ? lookups.statuses.get(card.status_id) : undefined;
  const title = cardTitle(card, t);
  const collection = card.collection?.name ?? '';
  // A card that starts before its material is expected warns as a broken dependency does.
  const materialWarning = earlyCardWarning(lookups.materialEarly.get(card.id), card.id, t);
  // So does one whose assigned people lack its skill (docs/API.md "Skills and crews").
  const unqualified = skillWarning(lookups.skills.get(card.id), t);
  const warnings = [
    ...(card.collection?.warnings ?? []),
    ...(materialWarning ? [materialWarning] : []),
    ...(unqualified ? [unqualified] : []),
  ];
  const people = card.resources.map((resource) => lookups.resources.get(resource.id)?.name ?? '?');
  const initials = people.map(initialsOf);
  const labelNames = card.labels.map((label) => lookups.labels.get(label.id)?.name).filter(Boolean);
  const stage = lookups.stages.get(card.stage_id)?.name ?? '';
  // The name the card goes by everywhere, with its dates: the hover title of every card.
  const fullName = cardName({ ...card, stage: { name: stage } }, t, { dates: true });
  const overruled = lookups.overruled.has(card.id);
  const planFinding = lookups.planFindings.has(card.id);
  const floor = floorWords(card, status?.exit === true, t);
  // The marks before the title take its room: 12 px and a 3 px gap each (the timer's dot 12 in all).
  const marks = [card.time_tracking_running, overruled, planFinding, offDay, warnings.length > 0].filter(Boolean).length * 15;
  const shown = shownTitle(title, collection, shared, width - marks, cardTextWidth);
  const description = [
    title,
    collection && collection !== title ? t('planboard.card.collection', { name: collection }) : '',
    card.start_date === card.end_date
      ? longDate(card.start_date, t)
      : t('planboard.card.span', { start: longDate(card.start_date, t), end: longDate(card.end_date, t) }),
    stage,
    status ? t('planboard.card.status', { name: status.name }) : '',
    labelNames.length ? t('planboard.card.labels', { names: labelNames.join(', ') }) : '',
    people.length ? t('planboard.card.people', { names: people.join(', ') }) : '',
    card.time_tracking_running ? t('planboard.card.timerRunning') : '',
    floor ?? '',
    warnings.length ? t('planboard.card.warning', { warnings: warnings.map((warning) => warningText(warning, t)).join('; ') }) : '',
    overruled ? t('overruled.cardMark') : '',
    planFinding ? t('planCheck.cardMark') : '',
    offDay ? t('workload.nonWorkday.flag') : '',
  ]
    .filter(Boolean)
    .join(', ');

  let className = 'pb-card';
  if (selected) className += ' is-selected';
  if (active) className += ' is-active';
  if (warnings.length > 0) className += ' has-warning';
  if (overruled) className += ' is-overruled';
  if (planFinding) className += ' has-plan-finding';
  if (offDay) className += ' is-off-day';
  if (shown.narrow) className += ' pb-card--narrow';

  return (
    <div
      ref={element}
      id={cardElementId(card.id)}
      role="option"
      aria-selected={selected}
      aria-label={description}
      title={fullName}
      data-card-id={card.id}
      className={className}
      style={{
        left,
        top,
        width: width - 2,
        height,
        borderLeftColor: status ? boardColorHex[status.color] : undefined,
      }}
    >
      <span className="pb-card__title" aria-hidden="true">
        {card.time_tracking_running && <span className="pb-card__timer" title={floor ?? t('planboard.card.timerTitle')} />}
        {overruled && (
          <span className="pb-card__overruled" title={t('overruled.cardMark')}>
            <RotateCcw aria-hidden="true" size={12} />
          </span>
        )}
        {planFinding && (
          <span className="pb-card__plan-finding" title={t('planCheck.cardMark')}>
            <Gauge aria-hidden="true" size={12} />
          </span>
        )}
        {offDay && (
          <span className="pb-card__off-day" title={t('workload.nonWorkday.flag')}>
            <CalendarOff size={12} aria-hidden="true" />
          </span>
        )}
        {warnings.length > 0 && (
          <span className="pb-card__warning" title={warnings.join('\n')}>
            <TriangleAlert aria-hidden="true" size={12} />
          </span>
        )}
        {shown.text}
      </span>
      <span className="pb-card__meta" aria-hidden="true">
        {card.labels.map((label) => {
          const found = lookups.labels.get(label.id);
          return found ? (
            <span key={label.id} className="pb-card__label" title={found.name} style={{ background: boardColorHex[found.color] }} />
          ) : null;
        })}
        {collection !== title && collection}
        {initials.map((text, index) => (
          // The initials are drawn by the style sheet (`data-initials`), not text of the card: the
          // card's name says who in full, and a card's text must be part of its name.
          <span key={card.resources[index]!.id} className="pb-card__resource" title={people[index]} data-initials={text} />
        ))}
      </span>
    </div>
  );
});

/** How close to a card's side (px) a pointer-down resizes instead of moving it. */
export const edgeWidth = 6;

/** The resize edge under a pointer at `clientX`, if any. A card too narrow for both moves. */
export function edgeAt(element: HTMLElement, clientX: number): 'start' | 'end' | null {
  const box = element.getBoundingClientRect();
  if (box.width < 4 * edgeWidth) return clientX >= box.right - edgeWidth ? 'end' : null;
  if (clientX <= box.left + edgeWidth) return 'start';
  if (clientX >= box.right - edgeWidth) return 'end';
  return null;
}

export function cardElementId(cardId: string): string {
  return `pb-card-${cardId}`;
}

/** "Anna de Vries" → "AV"; "CNC 2" → "C2". */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '?';
  const first = words[0]!.charAt(0);
  const last = words.length > 1 ? words[words.length - 1]!.charAt(0) : '';
  return (first + last).toUpperCase();
}
