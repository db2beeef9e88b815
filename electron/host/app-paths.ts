/**
 * Where the app keeps its data when no --data-dir is given: the same per-user folder that
 * Electron's `app.getPath('userData')` gives a desktop install, so the desktop window and
 * the browser host open the same planning data.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

export const productName = 'Planner';

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), productName);
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', productName);
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), productName);
}
