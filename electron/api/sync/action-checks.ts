/**
 * Rules the remote checks once a whole pushed action has been applied, not after each of its
 * changes (docs/API.md "Sync", "Actions sync whole"). A planner's action reaches the remote as
 * one group of mutations in the order the replica wrote them, and some rules hold only for the
 * action as a whole: an undo of a plan takes the collection off the board before it deletes the
 * plan's cards (undo reverts records in the reverse order), so between the two the collection is
 * in the backlog with live cards, which is no second plan of anyone's.
 *
 * A mutation's rule (`checkSynced`, electron/api/resource.ts) registers such a check under a
 * key (one check per collection, however many of the action's changes touch it). They run in
 * the action's savepoint after its last mutation; a check that throws refuses the whole action,
 * answered on the mutation that first registered it. A mutation pushed alone (an older replica
 * sends no groups) is an action of its own.
 */
import type { Mutation } from '../../../shared/operations/sync.js';
import type { RecordWrites } from '../../store/record-store.js';

/** A check of the action's end state; `action` is every mutation of the action, in order. */
export type ActionCheck = (tx: RecordWrites, action: readonly Mutation[]) => Promise<void>;

/** What a mutation's rules see of the action it belongs to. */
export interface SyncAction {
  /** Runs `check` once the action is applied, once per key. */
  afterAction(key: string, check: ActionCheck): void;
}

/** The checks an action's mutations registered, with the mutation that registered each first. */
export class ActionChecks {
  private readonly checks = new Map<string, { mutation: Mutation; check: ActionCheck }>();

  /** What the rules of `mutation` get: a way to register checks blamed on it. */
  for(mutation: Mutation): SyncAction {
    return {
      afterAction: (key, check) => {
        if (!this.checks.has(key)) this.checks.set(key, { mutation, check });
      },
    };
  }

  /** Runs every check; answers the first refusal with the mutation it is blamed on, or undefined. */
  async run(tx: RecordWrites, action: readonly Mutation[]): Promise<{ mutation: Mutation; error: unknown } | undefined> {
    for (const { mutation, check } of this.checks.values()) {
      try {
        await check(tx, action);
      } catch (error) {
        return { mutation, error };
      }
    }
    return undefined;
  }
}
