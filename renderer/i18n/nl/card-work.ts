/** Wat een kaart plant, in het kaartpaneel, in het Nederlands: het type eist elke Engelse sleutel. */
import type { cardWorkMessages as english } from '../en/card-work.js';

export const cardWorkMessages: Record<keyof typeof english, string> = {
  'card.work': 'Werk',
  'card.work.activities': 'Activiteiten van de kaart',
  'card.work.noActivities': 'Geen activiteiten op deze kaart.',
  'card.work.planned': 'Gepland: {time}',
  'card.work.plannedWithSetup': 'Gepland: {time} + {setup} insteltijd',
  'card.work.order': 'Order',
  'card.work.orderRows': 'Regels van de order',
  'card.floor': 'Op de werkvloer',
  'card.floor.booked': '{booked} u geboekt van {planned} u gepland',
  'card.floor.over': 'boven planning ({percent} %)',
  'card.floor.startedBy': 'Gestart door {name} op {time}',
  'card.floor.someone': 'iemand',
  'card.floor.rows': 'Gemaakt per orderregel',
  'card.floor.row': 'Orderregel',
  'card.floor.madeOf': '{made} van {ordered} gemaakt',
  'card.floor.made': '{made} gemaakt',
  'card.floor.scrapped': '{scrapped} afgekeurd',
  'warning.stageEarly': 'Fase {stage} begint op {start}, voordat fase {previous} klaar is (op zijn vroegst {earliest})',
  'warning.notAllowed': 'Activiteit {activity} mag in geen enkele fase van het bord, dus is niet gepland',
  'warning.afterDue': 'Gepland tot {end}, na de uiterste datum {due}',
};
