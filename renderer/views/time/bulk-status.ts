/**
 * Approving or rejecting many entries: one `set_time_status` command (docs/API.md "Commands
 * and undo"), so they all change or none does. When the API refuses some, its 422 names each
 * one (`entries.3.status`), and each refusal is shown beside its entry ("status cannot change
 * from draft to rejected", "locked"); nothing was written, so there is nothing to take back.
 */
import { ApiRequestError } from '../../api/client.js';
import { runCommand } from '../../api/commands.js';
import { setTimeStatusOperation } from '../../../shared/operations/commands.js';
import type { Transport } from '../../api/transport.js';
import type { TimeStatus } from '../../../shared/resources/time-tracking.js';

export interface BulkFailure {
  id: string;
  message: string;
}

export interface BulkOutcome {
  done: string[];
  failed: BulkFailure[];
}

/** Other failures (offline, not allowed) reject with the API's error, for the list to show. */
export async function setStatusOfAll(transport: Transport, ids: readonly string[], status: TimeStatus): Promise<BulkOutcome> {
  try {
    await runCommand(transport, setTimeStatusOperation, { entries: [...ids], status });
    return { done: [...ids], failed: [] };
  } catch (error) {
    if (!(error instanceof ApiRequestError) || error.status !== 422) throw error;
    const failed: BulkFailure[] = [];
    for (const item of error.items) {
      const at = /^entries\.(\d+)/.exec(item.field ?? '');
      const id = at ? ids[Number(at[1])] : undefined;
      // The API's description starts with the entry's place in the list, which the planner never saw.
      const message = (item.description || item.message).replace(/^entries\.\d+(\.|:\s*)/, '');
      if (id === undefined) throw error;
      const known = failed.find((failure) => failure.id === id);
      if (known) known.message = `${known.message} ${message}`;
      else failed.push({ id, message });
    }
    return { done: [], failed };
  }
}
