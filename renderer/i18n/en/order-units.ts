/** The units of an order row, in English (docs/API.md "Order row units"). */
export const orderUnitsMessages = {
  'orders.unit.none': 'No unit',
  'orders.unit.minutes': 'minutes',
  'orders.unit.hours': 'hours',
  'orders.unit.days': 'days',
  'orders.unit.pieces': 'pieces',
  // The public API counts a day as 3,600 minutes.
  'orders.unit.dayHours': '1 day = {hours} h',
} as const;
