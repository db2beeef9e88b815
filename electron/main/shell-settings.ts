/**
 * The shell's own settings (the menu's language, what closing with unsynced changes does),
 * kept in `shell-settings.json` in userData. The renderer's settings screen reads and
 * changes them over the bridge; a change takes effect at once (the menu is rebuilt).
 */
import type { ShellSettings } from '../../shared/ipc.js';
import { readJsonFile, writeJsonFile } from '../host/json-file.js';

export const defaultShellSettings: Readonly<ShellSettings> = Object.freeze({ language: 'system', closeWithPending: 'ask' });

const allowed: { [K in keyof ShellSettings]: readonly ShellSettings[K][] } = {
  language: ['system', 'en', 'nl'],
  closeWithPending: ['ask', 'sync-first'],
};

/** A change from the renderer: an object with only known keys, each with an allowed value. */
export function parseShellSettingsChange(payload: unknown): Partial<ShellSettings> | { error: string } {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return { error: 'settings must be an object' };
  const change: Partial<Record<keyof ShellSettings, unknown>> = {};
  for (const [key, value] of Object.entries(payload)) {
    if (!Object.hasOwn(allowed, key)) return { error: `unknown setting ${key}` };
    const values = allowed[key as keyof ShellSettings] as readonly unknown[];
    if (!values.includes(value)) return { error: `${key} must be one of ${values.join(', ')}` };
    change[key as keyof ShellSettings] = value;
  }
  return change as Partial<ShellSettings>;
}

export class ShellSettingsFile {
  private current: ShellSettings;
  private readonly listeners = new Set<(settings: ShellSettings) => void>();

  constructor(private readonly path: string) {
    // A hand-edited file with a bad value keeps the good ones and the default for the rest.
    const stored = readJsonFile(path);
    const valid: Partial<ShellSettings> = {};
    if (typeof stored === 'object' && stored !== null) {
      for (const [key, value] of Object.entries(stored)) {
        const one = parseShellSettingsChange({ [key]: value });
        if (!('error' in one)) Object.assign(valid, one);
      }
    }
    this.current = { ...defaultShellSettings, ...valid };
  }

  get(): ShellSettings {
    return { ...this.current };
  }

  update(change: Partial<ShellSettings>): ShellSettings {
    this.current = { ...this.current, ...change };
    writeJsonFile(this.path, this.current);
    for (const listener of this.listeners) listener(this.get());
    return this.get();
  }

  onChange(listener: (settings: ShellSettings) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
