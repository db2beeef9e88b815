/**
 * The languages the app's labels come in. Each language has a core catalogue
 * (`messages.<code>.ts`) that merges in one catalogue per screen area (`<code>/<area>.ts`,
 * such as `en/planboard.ts` and `nl/planboard.ts`).
 *
 * Adding a language: `messages.<code>.ts` and a folder `<code>/` with a file per area, as in
 * `nl/` (they may leave labels out — missing ones fall back to English), an entry here, and a
 * line in `catalogues.ts`. Adding an area: `en/<area>.ts` with every English label of it (keys
 * prefixed `<area>.`), `<code>/<area>.ts` for each other language, and both merged in.
 */
export const languages = [
  { code: 'en', name: 'English', locale: 'en-GB' },
  { code: 'nl', name: 'Nederlands', locale: 'nl-NL' },
] as const;

export type Language = (typeof languages)[number]['code'];

export const defaultLanguage: Language = 'en';

export function isLanguage(value: unknown): value is Language {
  return languages.some((language) => language.code === value);
}

/** The locale numbers and dates are formatted in for a language. */
export function localeOf(language: Language): string {
  return languages.find((entry) => entry.code === language)?.locale ?? 'en-GB';
}

/** The first of the browser's preferred languages the app has, or English. */
export function preferredLanguage(preferred: readonly string[]): Language {
  for (const tag of preferred) {
    const primary = tag.toLowerCase().split(/[-_]/)[0];
    if (isLanguage(primary)) return primary;
  }
  return defaultLanguage;
}
