import { describe, expect, it } from 'vitest';
import { catalogues } from '../../renderer/i18n/catalogues.js';
import { createTranslate } from '../../renderer/i18n/translate.js';
import { durationText } from '../../renderer/views/activities/activity-draft.js';

describe('an activity’s default duration as planners say it', () => {
  it('gives hours and minutes, leaving out a part that is zero', () => {
    const t = createTranslate(catalogues, 'en');
    expect(durationText(45, t)).toBe('45 min');
    expect(durationText(120, t)).toBe('2 h');
    expect(durationText(90, t)).toBe('1 h 30 min');
  });

  it('says hours as “u” in Dutch', () => {
    const t = createTranslate(catalogues, 'nl');
    expect(durationText(90, t)).toBe('1 u 30 min');
    expect(durationText(60, t)).toBe('1 u');
  });
});
