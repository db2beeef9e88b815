/** De Nederlandse labels van de card-schermen: het type eist elke Engelse sleutel. */
import type { cardMessages as english } from '../en/card.js';

export const cardMessages: Record<keyof typeof english, string> = {};
