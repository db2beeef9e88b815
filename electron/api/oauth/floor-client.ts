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

/**
 * The client of an operator's sign-in on a kiosk (docs/decisions/kiosk-pins.md): made only by
 * `POST /v1/floor/kiosk/unlock` with a PIN, it reaches the floor's own routes and nothing else
 * (refuseKioskOutsideFloor), and lasts `kioskSignInMinutes` at the most.
 */
export const kioskClientId = 'planner-kiosk';

/** How long an operator's sign-in on a kiosk lasts at the most; the kiosk ends it after 60 s without a touch. */
export const kioskSignInMinutes = 15;

const kioskClient: StoredClient = { ...floorClient, id: kioskClientId, name: 'Planner floor kiosk' };

/** The built-in client of this id, if it is one. */
export function builtInClient(clientId: string): StoredClient | undefined {
  if (clientId === floorClientId) return floorClient;
  return clientId === kioskClientId ? kioskClient : undefined;
}
