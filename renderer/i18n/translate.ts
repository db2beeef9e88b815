/**
 * Looking a label up: the chosen language's catalogue, then English, then the key itself (a
 * missing label shows as its key rather than as nothing). `{name}` in a label is replaced by
 * the parameter of that name. Counted labels have one key per plural category
 * (`entries.count.one`, `entries.count.other`), picked by the language's plural rules.
 * Pure, so the fallbacks are tested (test/renderer/i18n.test.ts).
 */
import type { Language } from './languages.js';
import { localeOf } from './languages.js';
import type { MessageKey } from './messages.en.js';

export type Params = Readonly<Record<string, string | number>>;

/** The labels of one language; any but English may leave some out. */
export type Catalogue = Partial<Record<MessageKey, string>>;

/** The base of every counted label: `entries.count` for `entries.count.one`/`.other`. */
export type CountedKey = { [K in MessageKey]: K extends `${infer Base}.other` ? Base : never }[MessageKey];

export interface Translate {
  (key: MessageKey, params?: Params): string;
  /** A counted label: `count` is also passed as the `{count}` parameter. */
  count(key: CountedKey, count: number, params?: Params): string;
  language: Language;
  /** For Intl formatting of numbers and dates. */
  locale: string;
}

export function fill(text: string, params: Params | undefined): string {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(params, name) ? String(params[name]) : whole));
}

export function createTranslate(catalogues: Readonly<Record<string, Catalogue>>, language: Language, fallback: Language = 'en'): Translate {
  const own = catalogues[language] ?? {};
  const base = catalogues[fallback] ?? {};
  const locale = localeOf(language);
  const rules = new Intl.PluralRules(locale);
  const lookup = (key: string): string | undefined => own[key as MessageKey] ?? base[key as MessageKey];
  const translate = ((key: MessageKey, params?: Params) => fill(lookup(key) ?? key, params)) as Translate;
  translate.count = (key, count, params) => {
    const text = lookup(`${key}.${rules.select(count)}`) ?? lookup(`${key}.other`) ?? key;
    return fill(text, { count: new Intl.NumberFormat(locale).format(count), ...params });
  };
  translate.language = language;
  translate.locale = locale;
  return translate;
}
