/** De Nederlandse labels van de orders-schermen: het type eist elke Engelse sleutel. */
import type { ordersMessages as english } from '../en/orders.js';

export const ordersMessages: Record<keyof typeof english, string> = {};
