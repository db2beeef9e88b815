/**
 * Approving or rejecting many entries: one PUT per entry, in turn, so each failure is known
 * and shown beside its entry ("status cannot change from draft to rejected", "locked"),
 * while the others go through.
 */
import { describeError, type ApiClient } from '../../api/client.js';
import type { TimeStatus } from '../../../shared/resources/time-tracking.js';

export interface BulkFailure {
  id: string;
  message: string;
}

export interface BulkOutcome {
  done: string[];
  failed: BulkFailure[];
}

export async function setStatusOfEach(
  client: Pick<ApiClient, 'update'>,
  ids: readonly string[],
  status: TimeStatus,
  onProgress?: (done: number, total: number) => void,
): Promise<BulkOutcome> {
  const outcome: BulkOutcome = { done: [], failed: [] };
  for (const [index, id] of ids.entries()) {
    try {
      await client.update('/v1/time_tracking', id, { status });
      outcome.done.push(id);
    } catch (error) {
      outcome.failed.push({ id, message: describeError(error) });
    }
    onProgress?.(index + 1, ids.length);
  }
  return outcome;
}
