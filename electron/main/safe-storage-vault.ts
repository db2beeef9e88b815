/**
 * The remote's credentials (OAuth tokens or an API key), encrypted with the OS keychain
 * through Electron's safeStorage and kept in a file in userData. Only main reads them; the
 * sync client takes them from here and the page never sees them.
 *
 * Without a real keychain nothing is stored: on Linux without a secret service, safeStorage
 * would fall back to a key built into Chromium (`basic_text`), which protects nothing, so that
 * counts as unavailable too. Saving then throws `KeychainUnavailable`, which callers turn into
 * a message for the planner.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SafeStorage } from 'electron';
import type { CredentialVault } from '../sync/credentials.js';
import type { RemoteCredentials } from '../sync/remote.js';
import { ownerOnlyFolderMode } from '../store/owner-only.js';

export class KeychainUnavailable extends Error {
  constructor() {
    super('no system keychain is available to encrypt the remote credentials');
  }
}

export type SafeStorageApi = Pick<SafeStorage, 'isEncryptionAvailable' | 'encryptString' | 'decryptString'> & {
  getSelectedStorageBackend?: SafeStorage['getSelectedStorageBackend'];
};

export function keychainAvailable(safeStorage: SafeStorageApi, platform: NodeJS.Platform = process.platform): boolean {
  if (!safeStorage.isEncryptionAvailable()) return false;
  if (platform === 'linux' && safeStorage.getSelectedStorageBackend?.() === 'basic_text') return false;
  return true;
}

function isCredentials(value: unknown): value is RemoteCredentials {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  if (typeof v.remote_url !== 'string') return false;
  return ['api_env', 'api_key', 'access_token', 'refresh_token', 'client_id'].every(
    (key) => v[key] === undefined || typeof v[key] === 'string',
  );
}

export class SafeStorageVault implements CredentialVault {
  private cached: RemoteCredentials | null | undefined;

  constructor(
    private readonly path: string,
    private readonly safeStorage: SafeStorageApi,
    private readonly platform: NodeJS.Platform = process.platform,
  ) {}

  canStore(): boolean {
    return keychainAvailable(this.safeStorage, this.platform);
  }

  load(): RemoteCredentials | null {
    if (this.cached !== undefined) return this.cached;
    this.cached = null;
    if (!existsSync(this.path)) return null;
    if (!this.canStore()) {
      // Not cached: the keychain may be unlocked later in the session.
      this.cached = undefined;
      return null;
    }
    try {
      const parsed: unknown = JSON.parse(this.safeStorage.decryptString(readFileSync(this.path)));
      if (isCredentials(parsed)) this.cached = parsed;
      else console.error(`${this.path} does not hold remote credentials; ignoring it.`);
    } catch (error) {
      // Another user's or another machine's keychain: the planner signs in again.
      console.error(`The remote credentials in ${this.path} could not be decrypted:`, error);
    }
    return this.cached;
  }

  save(credentials: RemoteCredentials | null): void {
    if (credentials === null) {
      rmSync(this.path, { force: true });
      this.cached = null;
      return;
    }
    if (!this.canStore()) throw new KeychainUnavailable();
    const encrypted = this.safeStorage.encryptString(JSON.stringify(credentials));
    mkdirSync(dirname(this.path), { recursive: true, mode: ownerOnlyFolderMode });
    const temporary = `${this.path}.tmp`;
    writeFileSync(temporary, encrypted, { mode: 0o600 });
    renameSync(temporary, this.path);
    this.cached = credentials;
  }

  /**
   * Moves credentials an earlier version kept in plain JSON (`FileVault`) into this vault and
   * deletes the plain file. Left alone when there is no keychain to move them into.
   */
  adoptPlainFile(plainPath: string): void {
    if (!existsSync(plainPath) || existsSync(this.path) || !this.canStore()) return;
    try {
      const parsed: unknown = JSON.parse(readFileSync(plainPath, 'utf8'));
      if (isCredentials(parsed)) this.save(parsed);
      rmSync(plainPath, { force: true });
    } catch (error) {
      console.error(`Could not move the credentials in ${plainPath} to the keychain:`, error);
    }
  }
}
