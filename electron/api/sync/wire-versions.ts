/**
 * The versions on the sync wire (docs/API.md "Sync", "Versions and unknown data"). A replica
 * sends its sync protocol and its schema version (how many environment migrations it has) as
 * headers with every push, changes and snapshot request; the remote answers both in every
 * such body. Users do not update every computer at once, so a differing schema is normal
 * (unknown fields and resources are kept: unknown-data.ts); a protocol below the minimum is
 * not, and is refused with 426 before anything is read or applied.
 *
 * A request without the headers is an integration or a script calling the API, not a
 * replica, and is answered as the current protocol.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { minSyncProtocol, syncProtocol, syncProtocolHeader, syncSchemaHeader } from '../../../shared/sync.js';
import { environmentMigrations } from '../../store/migrations/environment/index.js';
import { ApiError } from '../errors.js';

/** The schema version of this app: the number of environment migrations it knows. */
export const schemaVersion = environmentMigrations.length;

/** What every push, changes and snapshot answer says of this instance. */
export function wireVersions(): { protocol: number; schema: number } {
  return { protocol: syncProtocol, schema: schemaVersion };
}

function versionHeader(headers: IncomingHttpHeaders, name: string): number | undefined {
  const value = headers[name];
  if (value === undefined) return undefined;
  const text = Array.isArray(value) ? value.join(',') : value;
  if (!/^\d{1,6}$/.test(text)) throw ApiError.badRequest(`${name} must be a whole number (a version)`);
  return Number(text);
}

/**
 * The sync protocol a request says it speaks; undefined without the header (an integration or
 * a script, which gets the forms every version reads).
 */
export function replicaProtocol(headers: IncomingHttpHeaders): number | undefined {
  return versionHeader(headers, syncProtocolHeader);
}

/**
 * Checks the versions a replica sent; throws 426 when its protocol is below `minimum` (the
 * remote's minimum, or higher for what an older replica cannot read).
 */
export function checkReplicaVersions(headers: IncomingHttpHeaders, minimum = minSyncProtocol): void {
  const protocol = versionHeader(headers, syncProtocolHeader);
  versionHeader(headers, syncSchemaHeader);
  if (protocol !== undefined && protocol < minimum) {
    throw new ApiError('upgradeRequired', [
      {
        field: syncProtocolHeader,
        description: `This app syncs with protocol ${protocol}; the server needs at least ${minimum}. Update the app on this computer to sync again; its changes are kept until then.`,
      },
    ]);
  }
}
