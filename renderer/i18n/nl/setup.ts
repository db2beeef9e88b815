/** De Nederlandse labels van de setup-schermen: het type eist elke Engelse sleutel. */
import type { setupMessages as english } from '../en/setup.js';

export const setupMessages: Record<keyof typeof english, string> = {};
