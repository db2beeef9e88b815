import { describe, expect, it } from 'vitest';
import { resolveTheme } from '../../renderer/views/settings/theme.js';

describe('the theme in force', () => {
  it('follows the system by default, in either mode', () => {
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('system', false)).toBe('light');
  });

  it('keeps a chosen theme whatever the system does', () => {
    expect(resolveTheme('light', true)).toBe('light');
    expect(resolveTheme('dark', false)).toBe('dark');
  });
});
