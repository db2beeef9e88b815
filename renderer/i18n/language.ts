/**
 * The language the planner chose, kept in localStorage so it survives a restart, and the
 * `t` that goes with it. Components read `useT()` and re-render when the language changes;
 * code outside React (a notice, a confirm) calls `t()` for the current language.
 */
import { useMemo } from 'react';
import { create } from 'zustand';
import { catalogues } from './catalogues.js';
import { isLanguage, preferredLanguage, type Language } from './languages.js';
import type { MessageKey } from './messages.en.js';
import { createTranslate, type Params, type Translate } from './translate.js';

const storageKey = 'planner.language';

function storedLanguage(): Language | null {
  try {
    const value = globalThis.localStorage?.getItem(storageKey);
    return isLanguage(value) ? value : null;
  } catch {
    // Storage can be switched off; the choice then lasts for this session only.
    return null;
  }
}

function initialLanguage(): Language {
  return storedLanguage() ?? preferredLanguage(globalThis.navigator?.languages ?? []);
}

function showLanguage(language: Language): void {
  if (typeof document !== 'undefined') document.documentElement.lang = language;
}

interface LanguageState {
  language: Language;
  setLanguage(language: Language): void;
}

export const useLanguage = create<LanguageState>()((set) => {
  const language = initialLanguage();
  showLanguage(language);
  return {
    language,
    setLanguage(next) {
      try {
        globalThis.localStorage?.setItem(storageKey, next);
      } catch {
        // See storedLanguage.
      }
      showLanguage(next);
      set({ language: next });
    },
  };
});

const translators = new Map<Language, Translate>();

export function translatorFor(language: Language): Translate {
  let translate = translators.get(language);
  if (!translate) {
    translate = createTranslate(catalogues, language);
    translators.set(language, translate);
  }
  return translate;
}

/** The translate function of the chosen language; the component re-renders when it changes. */
export function useT(): Translate {
  const language = useLanguage((state) => state.language);
  return useMemo(() => translatorFor(language), [language]);
}

/** A label in the current language, for code outside components. */
export function t(key: MessageKey, params?: Params): string {
  return translatorFor(useLanguage.getState().language)(key, params);
}
