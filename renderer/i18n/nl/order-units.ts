/** De eenheden van een orderregel, in het Nederlands: het type eist elke Engelse sleutel. */
import type { orderUnitsMessages as english } from '../en/order-units.js';

export const orderUnitsMessages: Record<keyof typeof english, string> = {
  'orders.unit.none': 'Geen eenheid',
  'orders.unit.minutes': 'minuten',
  'orders.unit.hours': 'uren',
  'orders.unit.days': 'dagen',
  'orders.unit.pieces': 'stuks',
  'orders.unit.dayHours': '1 dag = {hours} u',
};
