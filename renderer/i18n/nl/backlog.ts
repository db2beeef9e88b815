/** De Nederlandse labels van de backlog-schermen: het type eist elke Engelse sleutel. */
import type { backlogMessages as english } from '../en/backlog.js';

export const backlogMessages: Record<keyof typeof english, string> = {};
