import { describe, expect, it } from 'vitest';
import { catalogues } from '../../renderer/i18n/catalogues.js';
import { preferredLanguage } from '../../renderer/i18n/languages.js';
import { en } from '../../renderer/i18n/messages.en.js';
import { nl } from '../../renderer/i18n/messages.nl.js';
import { createTranslate, fill } from '../../renderer/i18n/translate.js';

describe('labels in the planner’s language', () => {
  it('uses the chosen language’s label', () => {
    expect(createTranslate(catalogues, 'nl')('nav.time')).toBe('Tijd');
    expect(createTranslate(catalogues, 'en')('nav.time')).toBe('Time');
  });

  it('falls back to English for a label a catalogue leaves out, and to the key for an unknown one', () => {
    const t = createTranslate({ en, nl: { 'nav.time': 'Tijd' } }, 'nl');
    expect(t('nav.time')).toBe('Tijd');
    expect(t('nav.sync')).toBe('Sync');
    expect(t('no.such.label' as never)).toBe('no.such.label');
  });

  it('fills parameters by name and leaves unknown ones standing', () => {
    expect(fill('Week {week}, {year}', { week: 47, year: '2026' })).toBe('Week 47, 2026');
    expect(fill('Hello {name}', {})).toBe('Hello {name}');
    // Only the parameters' own names: nothing from the prototype.
    expect(fill('{constructor}', {})).toBe('{constructor}');
  });

  it('picks the plural form by the language’s rules and formats the count', () => {
    const english = createTranslate(catalogues, 'en');
    expect(english.count('entries.count', 1)).toBe('1 entry');
    expect(english.count('entries.count', 2)).toBe('2 entries');
    expect(english.count('entries.count', 1200)).toBe('1,200 entries');
    const dutch = createTranslate(catalogues, 'nl');
    expect(dutch.count('entries.count', 1)).toBe('1 registratie');
    expect(dutch.count('entries.count', 0)).toBe('0 registraties');
    expect(dutch.count('entries.count', 1200)).toBe('1.200 registraties');
  });

  it('has a Dutch label for every English one, each with the same parameters', () => {
    const names = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const key of Object.keys(en) as (keyof typeof en)[]) {
      expect(nl[key], key).toBeTruthy();
      expect(names(nl[key]), key).toEqual(names(en[key]));
    }
  });

  it('starts in the first preferred language it has, else English', () => {
    expect(preferredLanguage(['nl-BE', 'en-US'])).toBe('nl');
    expect(preferredLanguage(['de-DE', 'en-GB'])).toBe('en');
    expect(preferredLanguage(['fr'])).toBe('en');
    expect(preferredLanguage([])).toBe('en');
  });
});
