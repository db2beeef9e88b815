/** Every language's labels, by language code. */
import type { Language } from './languages.js';
import { en } from './messages.en.js';
import { nl } from './messages.nl.js';
import type { Catalogue } from './translate.js';

export const catalogues: Readonly<Record<Language, Catalogue>> = { en, nl };
