/**
 * The floor view's own OAuth client (docs/API.md "The floor", docs/decisions/floor-sign-in.md):
 * built into every server, public (no secret), with no redirect URI, so the authorize page
 * never serves it. Its sign-ins are made only by `POST /v1/floor/sign_in` and last a shift: the
 * refresh tokens of a floor sign-in keep the expiry of its first one, so rotating them never
 * lengthens it.
 */
import type { StoredClient } from '../../store/oauth-store.js';

export const floorClientId = 'planner-floor';

/** How long a floor sign-in lasts: a shift, with some room either side. */
export const floorShiftHours = 12;

const floorClient: StoredClient = {
  id: floorClientId,
  name: 'Planner floor',
  redirect_uris: [],
  confidential: false,
  secret_hash: null,
  environment_id: null,
  created_at: '2026-12-07T00:00:00.000Z',
  updated_at: '2026-12-07T00:00:00.000Z',
};

/** The built-in client of this id, if it is one. */
export function builtInClient(clientId: string): StoredClient | undefined {
  return clientId === floorClientId ? floorClient : undefined;
}
