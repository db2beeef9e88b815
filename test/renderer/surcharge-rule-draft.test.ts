/**
 * The surcharge rule form's draft (renderer/views/settings/surcharge-rule-draft.ts): what it
 * saves, and a rule in words in English and Dutch (docs/API.md "Surcharge rules").
 */
import { describe, expect, it } from 'vitest';
import { catalogues } from '../../renderer/i18n/catalogues.js';
import { createTranslate } from '../../renderer/i18n/translate.js';
import {
  newSurchargeRuleDraft,
  surchargeRuleBody,
  surchargeRuleDraftFrom,
  surchargeRuleWhen,
} from '../../renderer/views/settings/surcharge-rule-draft.js';
import type { SurchargeRule } from '../../shared/resources/surcharge-rule.js';

const night: SurchargeRule = {
  id: '01939a4e-0000-7000-8000-000000000001',
  name: 'Night',
  weekdays: [1, 2, 3, 4, 5],
  public_holiday: true,
  from_time: '22:00',
  to_time: '06:00',
  percentage: 125,
  hour_code: 'NIGHT',
  external_ref: null,
  created_at: '2026-12-01T08:00:00Z',
  updated_at: '2026-12-01T08:00:00Z',
};

describe('the surcharge rule form', () => {
  it('saves the days in order, blank times and code as null, and leaves a blank percentage to the API', () => {
    const draft = { ...newSurchargeRuleDraft(), name: ' Saturday ', weekdays: [7, 6], percentage: '' };
    expect(surchargeRuleBody(draft, true)).toEqual({
      name: 'Saturday',
      weekdays: [6, 7],
      public_holiday: false,
      from_time: null,
      to_time: null,
      hour_code: null,
    });
    // A change with the percentage cleared sends null: the API answers that it is required.
    expect(surchargeRuleBody(surchargeRuleDraftFrom(night), false)).toMatchObject({ percentage: 125, hour_code: 'NIGHT' });
    expect(surchargeRuleBody({ ...surchargeRuleDraftFrom(night), percentage: ' ' }, false)).toMatchObject({ percentage: null });
  });

  it('says when a rule holds', () => {
    expect(surchargeRuleWhen(night, createTranslate(catalogues, 'en'))).toBe('Mon, Tue, Wed, Thu, Fri · public holidays · 22:00–06:00');
    expect(
      surchargeRuleWhen(
        { ...night, weekdays: [6], public_holiday: false, from_time: null, to_time: null },
        createTranslate(catalogues, 'nl'),
      ),
    ).toBe('Zat · hele dag');
    expect(surchargeRuleWhen({ ...night, weekdays: [], from_time: '18:00', to_time: null }, createTranslate(catalogues, 'en'))).toBe(
      'public holidays · 18:00–24:00',
    );
  });
});
