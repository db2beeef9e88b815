/**
 * The sign-in the sync screen starts: the loopback OAuth flow, then the tokens go into the
 * keychain vault through the sync client (which also restarts syncing against the remote).
 * The page gets only "signed in" or a reason; tokens stay in main.
 */
import type { SignInRequest, SignInResult } from '../../shared/ipc.js';
import type { LocalInstance } from '../host/local-instance.js';
import type { Translate } from './messages.js';
import { defaultSignInTimeoutMs, SignInError, signInWithBrowser } from './oauth-loopback.js';
import { KeychainUnavailable, type SafeStorageVault } from './safe-storage-vault.js';

export interface RemoteSignInOptions {
  vault: Pick<SafeStorageVault, 'canStore' | 'load' | 'save'>;
  instance(): Promise<Pick<LocalInstance, 'sync'>>;
  openBrowser(url: string): Promise<void>;
  t(): Translate;
  timeoutMs?: number;
}

export function createRemoteSignIn(options: RemoteSignInOptions): (request: SignInRequest) => Promise<SignInResult> {
  let busy = false;
  return async (request) => {
    const t = options.t();
    // Checked before the browser opens: signing in only to be told nothing could be kept
    // would waste the planner's time.
    if (!options.vault.canStore()) return { status: 'failed', message: t('signIn.noKeychain') };
    if (busy) return { status: 'failed', message: t('signIn.busy') };
    busy = true;
    const timeoutMs = options.timeoutMs ?? defaultSignInTimeoutMs;
    try {
      const tokens = await signInWithBrowser({
        remoteUrl: request.remote_url,
        clientId: request.client_id,
        openBrowser: options.openBrowser,
        timeoutMs,
        pages: { done: t('signIn.browserDone'), failed: t('signIn.browserFailed') },
      });
      const instance = await options.instance();
      await instance.sync.updateSettings({
        remote_url: request.remote_url,
        access_token: tokens.access_token,
        refresh_token: tokens.refresh_token,
      });
      // The client id is needed to refresh the tokens later; the settings API has no field for it.
      const stored = options.vault.load();
      if (stored) options.vault.save({ ...stored, client_id: request.client_id });
      return { status: 'signed-in', remote_url: request.remote_url };
    } catch (error) {
      if (error instanceof KeychainUnavailable) return { status: 'failed', message: t('signIn.noKeychain') };
      if (error instanceof SignInError) {
        console.warn(`Sign-in to ${request.remote_url} failed (${error.kind}): ${error.message}`);
        const message =
          error.kind === 'timeout'
            ? t('signIn.timeout', { minutes: Math.round(timeoutMs / 60_000) })
            : error.kind === 'state-mismatch'
              ? t('signIn.stateMismatch')
              : error.kind === 'unreachable'
                ? t('signIn.unreachable', { reason: error.message })
                : t('signIn.refused', { reason: error.message });
        return { status: error.kind === 'timeout' ? 'canceled' : 'failed', message };
      }
      console.error(`Sign-in to ${request.remote_url} failed:`, error);
      return { status: 'failed', message: (error as Error).message };
    } finally {
      busy = false;
    }
  };
}
