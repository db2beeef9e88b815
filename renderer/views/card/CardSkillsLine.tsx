/**
 * The card panel's line on skills and crews (docs/API.md "Skills and crews"): what the card's
 * activities need, who of its stage is qualified, and the warning when an assigned person lacks
 * a skill. Nothing for a card that asks nothing of its people.
 */
import { useT } from '../../i18n/index.js';
import { needsText, skillWarning, useCardSkills } from '../planboard/skills.js';

export function CardSkillsLine({ cardId }: { cardId: string }) {
  const t = useT();
  const skills = useCardSkills(cardId);
  const card = skills.data;
  if (!card) return null;
  const needs = needsText(card, t);
  if (needs === null) return null;
  const warning = skillWarning(card, t);
  return (
    <div className="card-skills">
      <p>{needs}</p>
      <p>
        {card.qualified.length > 0
          ? t('skills.qualified', { people: card.qualified.map((p) => p.name).join(', ') })
          : t('skills.nobodyQualified')}
      </p>
      {warning && (
        <p className="card-skills__warning" role="alert">
          ⚠ {warning}
        </p>
      )}
    </div>
  );
}
