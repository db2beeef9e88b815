/**
 * What every batch command shares (docs/API.md "Commands and undo"): its answer, and writing
 * its items one by one inside the command's transaction, where a refused item refuses them
 * all. Each item's problems are collected under its path (`cards.3.start_date`), so one 422
 * names every refused item, and nothing is written.
 */
import type { FieldProblem } from '../../../shared/errors.js';
import type { KeptCommandResult } from '../../../shared/operations/commands.js';
import type { CommandChange } from '../../store/command-book.js';
import type { RecordWrites } from '../../store/record-store.js';
import type { CommandMeta } from '../../store/changes.js';
import { ApiError } from '../errors.js';

/** The command's answer, read in its own transaction, on either engine. */
export async function answerIn(tx: RecordWrites, meta: CommandMeta): Promise<KeptCommandResult> {
  return answerFrom(meta, await tx.commands.changesOf(meta.id));
}

function answerFrom(meta: CommandMeta, changes: readonly CommandChange[]): KeptCommandResult {
  const seen = new Set<string>();
  const changed: KeptCommandResult['changed'] = [];
  for (const change of changes) {
    const key = `${change.resource}/${change.record_id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    changed.push({ resource: change.resource, id: change.record_id });
  }
  return { command_id: meta.id, description: meta.description, changed };
}

/**
 * Writes `items` with `write` in an asynchronous transaction (either engine), each in a
 * savepoint of its own, so a refused item's writes go and the transaction takes the next
 * item's (PostgreSQL takes no statement after a failed one until it rolls back to a
 * savepoint). A 422 or 404 of an item becomes problems under `<path>.<index>`; after the last
 * item any problem throws one 422, which rolls the command's transaction back. Anything else
 * (a 403, a 409) refuses the command as it is.
 */
export async function writeEachIn<T>(
  tx: RecordWrites,
  items: readonly T[],
  path: string,
  write: (item: T, at: string) => Promise<void>,
): Promise<void> {
  const problems: FieldProblem[] = [];
  for (const [index, item] of items.entries()) {
    const at = `${path}.${index}`;
    try {
      await tx.sync.savepoint(() => write(item, at));
    } catch (error) {
      collect(error, at, problems);
    }
  }
  if (problems.length > 0) throw ApiError.unprocessable(problems);
}

/** An item's 422 or 404 as problems under its path; anything else refuses the command as it is. */
function collect(error: unknown, at: string, problems: FieldProblem[]): void {
  if (!(error instanceof ApiError) || (error.kind !== 'unprocessable' && error.kind !== 'notFound')) throw error;
  for (const problem of error.items) {
    const field = error.kind === 'notFound' ? `${at}.id` : problem.field ? `${at}.${problem.field}` : at;
    problems.push({ field, description: problem.field ? `${at}.${problem.description}` : `${at}: ${problem.description}` });
  }
}
