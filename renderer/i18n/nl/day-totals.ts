/** De Nederlandse labels van dagen die kloppen: het type eist elke Engelse sleutel. */
import type { dayTotalsMessages as english } from '../en/day-totals.js';

export const dayTotalsMessages: Record<keyof typeof english, string> = {
  'week.noRoomLeft': 'Van {day} is nog maar {free} vrij, dus {hours} past niet. Tijd uit de urenstaat blijft binnen zijn dag.',
  'week.noRoomPiece':
    '{hours} past niet in één stuk op {day}: het langste vrije stuk is {longest}. Tijd uit de urenstaat blijft binnen zijn dag en naast de andere tijd van die dag.',
  'week.otherWeek': 'Deze registratie begint in de week ervoor. Wijzig haar in de urenstaat van die week, of in de lijst met registraties.',

  'week.askTitle': '{hours} boeken op {day}?',
  'week.askOverSchedule': '{day} telt dan {total}: {over} meer dan de {expected} die die dag op het rooster staat.',
  'week.askLongDay': '{day} telt dan {total}, meer dan een werkdag van 12 uur. Er is geen rooster om mee te vergelijken.',
  'week.askBook': '{hours} boeken',
  'week.askCorrect': 'Verbeteren',

  'entries.overlapQuestion.one': '{count} gekozen registratie overlapt andere tijd van dezelfde persoon. Toch goedkeuren?',
  'entries.overlapQuestion.other': '{count} gekozen registraties overlappen andere tijd van dezelfde persoon. Toch goedkeuren?',
  'entries.approveAnyway': 'Toch goedkeuren',
  'editor.approveOverlapping': 'Deze registratie overlapt andere tijd van dezelfde persoon. Toch goedkeuren?',
};
