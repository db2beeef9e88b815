/** What a card plans, in the card panel (CardWorkSection.tsx), and its collection's warnings, in English. */
export const cardWorkMessages = {
  'card.work': 'Work',
  'card.work.activities': 'Activities of the card',
  'card.work.noActivities': 'No activities on this card.',
  'card.work.planned': 'Planned: {time}',
  'card.work.order': 'Order',
  'card.work.orderRows': 'Rows of the order',
  // A collection's warnings (components/warning-words.ts); dates as the screen shows them.
  'warning.stageEarly': 'Stage {stage} starts on {start}, before stage {previous} is done (earliest {earliest})',
  'warning.notAllowed': 'Activity {activity} is not allowed in any stage of the board, so it was not planned',
  'warning.afterDue': 'Planned to end on {end}, after the due date {due}',
} as const;
