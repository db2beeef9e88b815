/** De Nederlandse labels van de planboard-schermen: het type eist elke Engelse sleutel. */
import type { planboardMessages as english } from '../en/planboard.js';

export const planboardMessages: Record<keyof typeof english, string> = {};
