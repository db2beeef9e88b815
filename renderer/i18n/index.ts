/**
 * The app's labels in the planner's language: `useT()` in components, `t()` elsewhere,
 * `useLanguage` to read or change the choice. See translate.ts for the fallbacks.
 */
export { t, translatorFor, useLanguage, useT } from './language.js';
export { languages, localeOf, type Language } from './languages.js';
export type { MessageKey } from './messages.en.js';
export type { CountedKey, Params, Translate } from './translate.js';
