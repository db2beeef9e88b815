/** What a card plans, in the card panel (CardWorkSection.tsx), and its collection's warnings, in English. */
export const cardWorkMessages = {
  'card.work': 'Work',
  'card.work.activities': 'Activities of the card',
  'card.work.noActivities': 'No activities on this card.',
  'card.work.planned': 'Planned: {time}',
  // The stage's setup, once per card before the work (docs/API.md "Setup times").
  'card.work.plannedWithSetup': 'Planned: {time} + {setup} setup',
  'card.work.order': 'Order',
  'card.work.orderRows': 'Rows of the order',
  // What the floor reported on the card (CardFloorFigures.tsx, docs/API.md "The floor").
  'card.floor': 'On the floor',
  'card.floor.booked': 'Booked {booked} h of {planned} h planned',
  'card.floor.over': 'over plan ({percent} %)',
  'card.floor.startedBy': 'Started by {name} at {time}',
  'card.floor.someone': 'someone',
  'card.floor.rows': 'Made per order row',
  'card.floor.row': 'Order row',
  'card.floor.madeOf': 'Made {made} of {ordered}',
  'card.floor.made': 'Made {made}',
  'card.floor.scrapped': '{scrapped} scrapped',
  // A collection's warnings (components/warning-words.ts); dates as the screen shows them.
  'warning.stageEarly': 'Stage {stage} starts on {start}, before stage {previous} is done (earliest {earliest})',
  'warning.notAllowed': 'Activity {activity} is not allowed in any stage of the board, so it was not planned',
  'warning.afterDue': 'Planned to end on {end}, after the due date {due}',
} as const;
