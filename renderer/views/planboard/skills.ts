/**
 * Who is qualified for cards (docs/API.md "Skills and crews"), as the card panel and the board
 * show it: one read, worked out by the server on every read, so a skill given to a person
 * shows at once. The words are pure.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { CardSkills } from '../../../shared/skills.js';
import { send } from '../../api/client.js';
import { skillsKey } from '../../api/hooks.js';
import { useApi } from '../../api/provider.js';
import type { Translate } from '../../i18n/index.js';

/** The board's cards it warns on (an assigned person lacks a skill, or nobody has it), by card id. */
export function useBoardSkills(boardId: string) {
  const { transport } = useApi();
  return useQuery({
    queryKey: [...skillsKey, 'board', boardId],
    queryFn: async () => {
      const answer = await send<{ data: CardSkills[] }>(transport, { method: 'GET', path: '/v1/skills', query: { board_id: boardId } });
      return new Map(answer.data.map((card) => [card.card_id, card]));
    },
    enabled: boardId !== '',
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** One card's skills, crew and qualified people. */
export function useCardSkills(cardId: string) {
  const { transport } = useApi();
  return useQuery({
    queryKey: [...skillsKey, 'card', cardId],
    queryFn: async () => {
      const answer = await send<{ data: CardSkills[] }>(transport, { method: 'GET', path: '/v1/skills', query: { card_ids: cardId } });
      return answer.data[0] ?? null;
    },
    retry: false,
  });
}

/** The warning on a card whose people lack its skill; null when there is none. */
export function skillWarning(card: CardSkills | undefined | null, t: Translate): string | null {
  if (!card) return null;
  if (card.unqualified.length > 0) {
    const people = card.unqualified.map((p) => t('skills.lacks', { name: p.name, skills: p.missing.join(', ') }));
    return t('skills.notQualified', { people: people.join('; ') });
  }
  return card.unstaffed ? t('skills.unstaffed', { skills: card.skills.join(', ') }) : null;
}

/** "Needs welding-cert-2 · crew of 2": null for a card that asks nothing of its people. */
export function needsText(card: CardSkills, t: Translate): string | null {
  const parts = [
    ...(card.skills.length > 0 ? [t('skills.needs', { skills: card.skills.join(', ') })] : []),
    ...(card.crew > 1 ? [t('skills.crew', { crew: card.crew })] : []),
  ];
  return parts.length > 0 ? parts.join(' · ') : null;
}
