/** Vaardigheden en ploegen op het kaartpaneel en het bord, in het Nederlands: het type eist elke Engelse sleutel. */
import type { skillsMessages as english } from '../en/skills.js';

export const skillsMessages: Record<keyof typeof english, string> = {
  'skills.needs': 'Vereist {skills}',
  'skills.crew': 'ploeg van {crew}',
  'skills.qualified': 'Bevoegd: {people}',
  'skills.nobodyQualified': 'Niemand in deze fase is bevoegd.',
  'skills.notQualified': 'Niet bevoegd: {people}',
  'skills.lacks': '{name} mist {skills}',
  'skills.unstaffed': 'Niemand met {skills} toegewezen',
  'skills.has': 'bevoegd: {skills}',
};
