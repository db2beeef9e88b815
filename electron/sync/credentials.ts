/**
 * Where a replica keeps the remote's address and credentials. Only the host process reads
 * them; the API takes them in and never gives them back. The desktop app encrypts them with
 * the OS keychain (electron/main); headless and browser-host replicas keep them in memory
 * (given on the command line) or in a file only the user can read.
 */
import { chmodSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import type { RemoteCredentials } from './remote.js';

export interface CredentialVault {
  load(): RemoteCredentials | null;
  save(credentials: RemoteCredentials | null): void;
}

export class MemoryVault implements CredentialVault {
  constructor(private credentials: RemoteCredentials | null = null) {}
  load() {
    return this.credentials;
  }
  save(credentials: RemoteCredentials | null) {
    this.credentials = credentials;
  }
}

/** A JSON file with mode 0600, written atomically. */
export class FileVault implements CredentialVault {
  private cached: RemoteCredentials | null | undefined;

  constructor(private readonly path: string) {}

  load(): RemoteCredentials | null {
    if (this.cached !== undefined) return this.cached;
    try {
      this.cached = existsSync(this.path) ? (JSON.parse(readFileSync(this.path, 'utf8')) as RemoteCredentials) : null;
    } catch {
      this.cached = null;
    }
    return this.cached;
  }

  save(credentials: RemoteCredentials | null): void {
    this.cached = credentials;
    if (credentials === null) {
      rmSync(this.path, { force: true });
      return;
    }
    const temporary = `${this.path}.tmp`;
    writeFileSync(temporary, JSON.stringify(credentials), { mode: 0o600 });
    chmodSync(temporary, 0o600);
    renameSync(temporary, this.path);
  }
}
