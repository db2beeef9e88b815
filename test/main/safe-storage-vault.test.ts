/**
 * The credential vault the desktop passes to the local instance: the remote's credentials
 * encrypted with the OS keychain (safeStorage, mocked here), or nothing stored at all.
 */
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { keychainAvailable, KeychainUnavailable, SafeStorageVault, type SafeStorageApi } from '../../electron/main/safe-storage-vault.js';
import { tempDir } from '../helpers/api.js';

vi.mock('electron', () => ({}));

function keychain(available = true, backend: ReturnType<NonNullable<SafeStorageApi['getSelectedStorageBackend']>> = 'gnome_libsecret') {
  return {
    isEncryptionAvailable: vi.fn(() => available),
    getSelectedStorageBackend: vi.fn(() => backend),
    encryptString: vi.fn((text: string) => Buffer.from(`v11:${Buffer.from(text).toString('hex')}`)),
    decryptString: vi.fn((data: Buffer) => {
      const text = data.toString();
      if (!text.startsWith('v11:')) throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
      return Buffer.from(text.slice(4), 'hex').toString();
    }),
  };
}

const credentials = {
  remote_url: 'https://planner.example.com',
  access_token: 'access-SECRET',
  refresh_token: 'refresh-SECRET',
  client_id: 'desktop',
};
let folder: string;
let path: string;

beforeEach(() => {
  folder = tempDir();
  path = join(folder, 'remote-credentials.bin');
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(folder, { recursive: true, force: true });
});

describe('the keychain vault', () => {
  it('writes only ciphertext, readable only by the file’s owner, and reads it back', () => {
    const storage = keychain();
    new SafeStorageVault(path, storage, 'linux').save(credentials);
    expect(readFileSync(path, 'utf8')).not.toMatch(/SECRET|remote_url/);
    if (process.platform !== 'win32') expect(statSync(path).mode & 0o077).toBe(0);
    expect(new SafeStorageVault(path, storage, 'linux').load()).toEqual(credentials);
  });

  it('refuses to store without a keychain, and leaves no file', () => {
    const vault = new SafeStorageVault(path, keychain(false), 'darwin');
    expect(vault.canStore()).toBe(false);
    expect(() => vault.save(credentials)).toThrow(KeychainUnavailable);
    expect(existsSync(path)).toBe(false);
  });

  it('counts Linux’s built-in fallback key as no keychain', () => {
    expect(keychainAvailable(keychain(true, 'basic_text'), 'linux')).toBe(false);
    expect(keychainAvailable(keychain(true, 'kwallet6'), 'linux')).toBe(true);
    expect(keychainAvailable(keychain(true, 'unknown'), 'win32')).toBe(true);
    expect(() => new SafeStorageVault(path, keychain(true, 'basic_text'), 'linux').save(credentials)).toThrow(KeychainUnavailable);
  });

  it('forgets the credentials on save(null) (signing out)', () => {
    const vault = new SafeStorageVault(path, keychain(), 'linux');
    vault.save(credentials);
    vault.save(null);
    expect(existsSync(path)).toBe(false);
    expect(vault.load()).toBeNull();
  });

  it('reads nothing from a file another keychain encrypted, and says so in the log', () => {
    writeFileSync(path, 'v10:something-else');
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(new SafeStorageVault(path, keychain(), 'linux').load()).toBeNull();
    expect(error).toHaveBeenCalled();
  });

  it('reads nothing from a decrypted file that does not hold credentials', () => {
    const storage = keychain();
    writeFileSync(path, storage.encryptString(JSON.stringify({ remote_url: 42 })));
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(new SafeStorageVault(path, storage, 'linux').load()).toBeNull();
  });

  it('reads again once the keychain is unlocked later in the session', () => {
    const storage = keychain();
    new SafeStorageVault(path, storage, 'linux').save(credentials);
    storage.isEncryptionAvailable.mockReturnValue(false);
    const vault = new SafeStorageVault(path, storage, 'linux');
    expect(vault.load()).toBeNull();
    storage.isEncryptionAvailable.mockReturnValue(true);
    expect(vault.load()).toEqual(credentials);
  });

  it('moves credentials an earlier version kept in plain JSON into the keychain, and deletes the plain file', () => {
    const plain = join(folder, 'sync-credentials.json');
    writeFileSync(plain, JSON.stringify(credentials));
    const vault = new SafeStorageVault(path, keychain(), 'linux');
    vault.adoptPlainFile(plain);
    expect(existsSync(plain)).toBe(false);
    expect(vault.load()).toEqual(credentials);
  });

  it('leaves the plain file alone when there is no keychain to move it into', () => {
    const plain = join(folder, 'sync-credentials.json');
    writeFileSync(plain, JSON.stringify(credentials));
    new SafeStorageVault(path, keychain(false), 'linux').adoptPlainFile(plain);
    expect(existsSync(plain)).toBe(true);
    expect(existsSync(path)).toBe(false);
  });
});
