/**
 * The shell's own settings and words: the language of menus and dialogs (a setting, or the
 * OS language), and what closing with unsynced changes does.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { messageKeys, resolveLanguage, translator } from '../../electron/main/messages.js';
import { defaultShellSettings, parseShellSettingsChange, ShellSettingsFile } from '../../electron/main/shell-settings.js';
import { tempDir } from '../helpers/api.js';

vi.mock('electron', () => ({}));

let folder: string;
beforeEach(() => {
  folder = tempDir();
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

describe('the language of the shell', () => {
  it('follows the setting, or the OS language when set to system', () => {
    expect(resolveLanguage('nl', 'en-US')).toBe('nl');
    expect(resolveLanguage('en', 'nl-NL')).toBe('en');
    expect(resolveLanguage('system', 'nl-BE')).toBe('nl');
    expect(resolveLanguage('system', 'nl')).toBe('nl');
    expect(resolveLanguage('system', 'en-GB')).toBe('en');
  });

  it('falls back to English for an OS language it does not speak', () => {
    expect(resolveLanguage('system', 'de-DE')).toBe('en');
    expect(resolveLanguage('system', '')).toBe('en');
    expect(resolveLanguage('system', 'constructor')).toBe('en');
  });

  it('fills in values and leaves unknown placeholders visible', () => {
    const t = translator('en');
    expect(t('backup.done', { file: 'x.sqlite' })).toBe('The backup is saved as x.sqlite.');
    expect(t('backup.done')).toBe('The backup is saved as {file}.');
    expect(translator('nl')('pending.message', { count: 2, remote: 'https://p.example' })).toBe(
      'Wijzigingen die nog niet naar https://p.example zijn verstuurd: 2.',
    );
  });

  it('has every message in Dutch, with the same placeholders', () => {
    const en = translator('en');
    const nl = translator('nl');
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    expect(messageKeys.length).toBeGreaterThan(60);
    for (const key of messageKeys) {
      expect(nl(key), key).not.toBe('');
      expect(placeholders(nl(key)), key).toEqual(placeholders(en(key)));
    }
  });
});

describe('the shell settings', () => {
  it('start from the defaults: the OS language, and asking before closing with pending changes', () => {
    expect(new ShellSettingsFile(join(folder, 'shell-settings.json')).get()).toEqual({ language: 'system', closeWithPending: 'ask' });
    expect(defaultShellSettings).toEqual({ language: 'system', closeWithPending: 'ask' });
  });

  it('are saved and read back, and listeners hear each change', () => {
    const path = join(folder, 'shell-settings.json');
    const settings = new ShellSettingsFile(path);
    const heard = vi.fn();
    settings.onChange(heard);
    settings.update({ language: 'nl' });
    settings.update({ closeWithPending: 'sync-first' });
    expect(heard).toHaveBeenLastCalledWith({ language: 'nl', closeWithPending: 'sync-first' });
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ language: 'nl', closeWithPending: 'sync-first' });
    expect(new ShellSettingsFile(path).get()).toEqual({ language: 'nl', closeWithPending: 'sync-first' });
  });

  it('keep the good values of a hand-edited file and default the rest', () => {
    const path = join(folder, 'shell-settings.json');
    writeFileSync(path, JSON.stringify({ language: 'fr', closeWithPending: 'sync-first', extra: true }));
    expect(new ShellSettingsFile(path).get()).toEqual({ language: 'system', closeWithPending: 'sync-first' });
  });

  it('accept a change only with known keys and allowed values', () => {
    expect(parseShellSettingsChange({ language: 'nl' })).toEqual({ language: 'nl' });
    expect(parseShellSettingsChange({})).toEqual({});
    expect(parseShellSettingsChange({ language: 'de' })).toHaveProperty('error');
    expect(parseShellSettingsChange({ closeWithPending: true })).toHaveProperty('error');
    expect(parseShellSettingsChange({ toString: 'x' })).toHaveProperty('error');
    expect(parseShellSettingsChange(['language'])).toHaveProperty('error');
    expect(parseShellSettingsChange(null)).toHaveProperty('error');
  });
});
