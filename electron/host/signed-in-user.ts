/**
 * The user a replica is signed in to its remote as (docs/API.md "The app's user"): the subject
 * of the stored access token. The token was issued to this app by its remote and is kept by
 * the host, so its claims are read without a check; the remote checks it on every sync call.
 * Only the id leaves this file, never the token. An API key names no user: null.
 */
import type { CredentialVault } from '../sync/credentials.js';

export function signedInUserId(vault: Pick<CredentialVault, 'load'>): string | null {
  const token = vault.load()?.access_token;
  const payload = token?.split('.')[1];
  if (!payload) return null;
  try {
    const claims: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    const subject = (claims as { sub?: unknown } | null)?.sub;
    return typeof subject === 'string' && /^[0-9a-f-]{36}$/i.test(subject) ? subject.toLowerCase() : null;
  } catch {
    return null;
  }
}
