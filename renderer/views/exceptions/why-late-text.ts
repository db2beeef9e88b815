/**
 * Why a collection is late, and the bottlenecks, in the planner's language (docs/API.md "Why
 * late"): worded from the reason's fields, the API's English text when one is missing.
 */
import type { Bottleneck, LateReason, WhatItTakes } from '../../../shared/why-late.js';
import { formatDay } from '../../components/dates-format.js';
import type { Translate } from '../../i18n/index.js';

export function whyLateText(reason: LateReason, t: Translate): string {
  const day = (value: string | null) => (value ? formatDay(value, t.locale) : '');
  const stage = reason.stage?.name ?? '';
  const span = (from: string | null, to: string | null) =>
    from === to ? t('whyLate.on', { day: day(from) }) : t('whyLate.fromTo', { from: day(from), to: day(to) });
  switch (reason.kind) {
    case 'past_due':
      return t('whyLate.past_due', { day: day(reason.to) });
    case 'material':
      return reason.to
        ? t('whyLate.material', { order: reason.waiting_for ?? '', day: day(reason.to) })
        : t('whyLate.material.unknown', { order: reason.waiting_for ?? '' });
    case 'work_before':
      return t('whyLate.work_before', { previous: reason.previous_stage ?? '', day: day(reason.from), stage });
    case 'person_away':
      return t('whyLate.person_away', { name: reason.resource?.name ?? '', when: span(reason.from, reason.to) });
    case 'stage_full':
      return t('whyLate.stage_full', { stage, when: span(reason.from, reason.to) });
    case 'no_room':
      if (reason.workdays !== null) return t.count('whyLate.no_room.length', reason.workdays, { stage, day: day(reason.to) });
      return reason.to ? t('whyLate.no_room', { stage, day: day(reason.to) }) : t('whyLate.no_room.never', { stage });
    case 'placed_late':
      return reason.stage ? t('whyLate.placed_late', { stage }) : reason.text;
  }
}

export function bottleneckText(bottleneck: Bottleneck, t: Translate): string {
  return t.count(bottleneck.kind === 'stage' ? 'whyLate.bottleneck.stage' : 'whyLate.bottleneck.resource', bottleneck.collections, {
    name: bottleneck.name,
  });
}

const hours = (minutes: number) => String(Math.round(minutes / 6) / 10);

/** "8 h overtime: Cees Wed 9 Dec 4 h, Thu 10 Dec 4 h". */
export function whatItTakesText(takes: WhatItTakes, t: Translate): string {
  const byPerson = new Map<string, string[]>();
  for (const o of takes.overtime) {
    const days = byPerson.get(o.name) ?? [];
    days.push(t('whyLate.overtimeDay', { day: formatDay(o.date, t.locale), hours: hours(o.minutes) }));
    byPerson.set(o.name, days);
  }
  const who = [...byPerson].map(([name, days]) => `${name} ${days.join(', ')}`).join('; ');
  return t('whyLate.whatItTakes', { hours: hours(takes.minutes), who });
}
