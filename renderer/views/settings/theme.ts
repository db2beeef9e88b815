/**
 * Light or dark: the planner's choice, or the operating system's (the default). The choice is
 * kept in localStorage; the theme in force is the `data-theme` attribute on <html>, which
 * theme.css reads. Until the app has run this, theme.css follows the OS by itself.
 */
import { useEffect } from 'react';
import { create } from 'zustand';

export const themePreferences = ['system', 'light', 'dark'] as const;
export type ThemePreference = (typeof themePreferences)[number];
export type Theme = 'light' | 'dark';

const storageKey = 'planner.theme';
const darkQuery = '(prefers-color-scheme: dark)';

export function resolveTheme(preference: ThemePreference, systemPrefersDark: boolean): Theme {
  if (preference === 'system') return systemPrefersDark ? 'dark' : 'light';
  return preference;
}

function storedPreference(): ThemePreference {
  try {
    const value = globalThis.localStorage?.getItem(storageKey);
    return themePreferences.includes(value as ThemePreference) ? (value as ThemePreference) : 'system';
  } catch {
    return 'system';
  }
}

interface ThemeState {
  preference: ThemePreference;
  setPreference(preference: ThemePreference): void;
}

function systemPrefersDark(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia(darkQuery).matches;
}

function showTheme(preference: ThemePreference): void {
  if (typeof document === 'undefined') return;
  document.documentElement.dataset.theme = resolveTheme(preference, systemPrefersDark());
  document.documentElement.dataset.themePreference = preference;
}

// Shown as the module loads, before the first render: a chosen light theme never flashes dark.
const initialPreference = storedPreference();
showTheme(initialPreference);

export const useThemePreference = create<ThemeState>()((set) => ({
  preference: initialPreference,
  setPreference(preference) {
    try {
      globalThis.localStorage?.setItem(storageKey, preference);
    } catch {
      // The choice then lasts for this session only.
    }
    set({ preference });
  },
}));

/** Keeps <html data-theme> in step with the choice and, for "system", with the OS. Mount once. */
export function useAppliedTheme(): void {
  const preference = useThemePreference((state) => state.preference);
  useEffect(() => {
    const apply = () => showTheme(preference);
    apply();
    const media = typeof window.matchMedia === 'function' ? window.matchMedia(darkQuery) : null;
    if (preference !== 'system' || !media) return;
    media.addEventListener('change', apply);
    return () => media.removeEventListener('change', apply);
  }, [preference]);
}
