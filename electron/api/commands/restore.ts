/**
 * Restoring a record from the trash whole (docs/API.md "Trash"): what was deleted with it comes
 * back with it. A delete takes a record's owned children, its links and the records that go with
 * it (write-plan.ts `deleteWithRules`: a card's activities, people, labels, checklists and
 * dependencies); a planner who brings a card back expects its work, not an empty card.
 *
 * "With it" means by the same command: the change log names the command that deleted the
 * record, and of the records that command deleted, those reached from this one the way the
 * delete went are restored too. A part deleted on its own before or after (a label taken off
 * the card last week) stays in the trash. A record deleted by no command (a delete that came in
 * by sync from an older replica) comes back alone, as before.
 */
import type { StoredRecord } from '../../../shared/fields.js';
import type { RecordWrites } from '../../store/record-store.js';
import { dependentsOf, moduleNamed, moduleNamedOrNone } from '../registry.js';
import type { RequestContext, ResourceModule } from '../resource.js';

/** The command that deleted a record last, from the change log; undefined when none did. */
async function deletingCommand(tx: RecordWrites, resource: string, id: string): Promise<string | undefined> {
  const changes = await tx.commands.changesAfter(resource, id, 0);
  for (let i = changes.length - 1; i >= 0; i--) {
    const change = changes[i]!;
    const deletes = change.op === 'delete' || (typeof change.fields?.deleted_at === 'string' && change.fields.deleted_at !== null);
    if (deletes) return change.command_id ?? undefined;
  }
  return undefined;
}

/** How a record's parts hang from it: by which field, in which resource's table. */
function partsOf(module: ResourceModule): { module: ResourceModule; field: string }[] {
  const parts: { module: ResourceModule; field: string }[] = [];
  for (const relation of Object.values(module.relations ?? {})) {
    if (relation.kind === 'hasMany' && relation.owned) parts.push({ module: moduleNamed(relation.target), field: relation.foreignKey });
    else if (relation.kind === 'manyToMany') parts.push({ module: moduleNamed(relation.link), field: relation.ownerKey });
  }
  return [...parts, ...dependentsOf(module.spec.name)];
}

/**
 * Restores `record` (deleted) and the parts its deleting command took with it, in `tx`; each
 * restored resource's `afterRestore` rule runs once the whole is back. Answers the records
 * restored, the record first.
 */
export async function restoreWhole(
  ctx: RequestContext,
  tx: RecordWrites,
  module: ResourceModule,
  record: StoredRecord,
): Promise<StoredRecord[]> {
  const command = await deletingCommand(tx, module.spec.name, record.id);
  const deletedTogether = new Map<string, StoredRecord[]>();
  if (command) {
    for (const change of await tx.commands.changesOf(command)) {
      const other = moduleNamedOrNone(change.resource);
      if (!other || (change.resource === module.spec.name && change.record_id === record.id)) continue;
      // As sync sees it: with its `deleted_at`, which a plain read leaves out.
      const part = await tx.sync.getForSync(other.table, change.record_id);
      if (!part?.deleted_at) continue;
      const list = deletedTogether.get(change.resource) ?? [];
      if (!list.some((r) => r.id === part.id)) list.push(part);
      deletedTogether.set(change.resource, list);
    }
  }
  const restored: { module: ResourceModule; record: StoredRecord }[] = [];
  const seen = new Set<string>();
  const queue = [{ module, record }];
  for (let next = queue.shift(); next; next = queue.shift()) {
    // A dependency between two cards deleted together hangs from both.
    const key = `${next.module.spec.name}/${next.record.id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    await tx.restore(next.module.table, next.record.id);
    restored.push(next);
    for (const part of partsOf(next.module)) {
      for (const candidate of deletedTogether.get(part.module.spec.name) ?? []) {
        if (candidate[part.field] === next.record.id) queue.push({ module: part.module, record: candidate });
      }
    }
  }
  for (const { module: restoredModule, record: part } of restored) {
    const after = restoredModule.rules?.afterRestore;
    if (after) await after(ctx, tx, part);
  }
  return restored.map((r) => r.record);
}
