/**
 * Records by the names a planner knows them by, for the Sync screen's lists (docs/API.md
 * "Sync"): a record's own name, and the name of a record a field names (a card's stage), so
 * that neither list shows an id.
 */
import { own } from '../../../shared/fields.js';
import { isUuid } from '../../../shared/ids.js';
import type { RecordStore } from '../../store/record-store.js';
import { moduleNamedOrNone } from '../registry.js';
import type { ResourceModule } from '../resource.js';

function firstText(record: Record<string, unknown> | undefined, fields: readonly string[]): string | null {
  for (const field of fields) {
    const value = record?.[field];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return null;
}

/**
 * The record as a planner knows it: its name (or code, description…). A card without a name
 * goes by its collection's, as the planboard shows it.
 */
export async function readableName(
  records: RecordStore,
  resource: string,
  record: Record<string, unknown> | undefined,
): Promise<string | null> {
  const own = firstText(record, ['name', 'code', 'description', 'email', 'external_ref']);
  const collections = moduleNamedOrNone('collection');
  if (own || resource !== 'card' || !collections || typeof record?.collection_id !== 'string') return own;
  return firstText(await wholeRecord(records, collections, record.collection_id), ['name', 'external_ref']);
}

/** A record as sync sees it, deleted or not. */
export async function wholeRecord(records: RecordStore, module: ResourceModule, id: string) {
  return (await records.feed.recordsForSync(module.table, [id])).get(id);
}

/**
 * The resource a field names records of: its declared reference (a card's `stage_id`), or the
 * resource its name says when the field is set from elsewhere (a card's `collection_id` and
 * `board_id`, which declare none since no one writes them).
 */
function referencedModule(resource: string, field: string): ResourceModule | undefined {
  const spec = own(moduleNamedOrNone(resource)?.table.fields ?? {}, field);
  if (!spec || spec.type !== 'uuid') return undefined;
  return moduleNamedOrNone(spec.references ?? field.replace(/_id$/, ''));
}

/**
 * For a field that names another record (a card's stage): that record's name, else null.
 * `live`: a deleted record counts as not there (its name is not looked up).
 */
export async function referencedName(
  records: RecordStore,
  resource: string,
  field: string,
  value: unknown,
  live = false,
): Promise<string | null> {
  const target = referencedModule(resource, field);
  if (!target || typeof value !== 'string' || !isUuid(value)) return null;
  const id = value.toLowerCase();
  const record = live ? await records.get(target.table, id) : await wholeRecord(records, target, id);
  return firstText(record, ['name', 'code', 'description', 'email']);
}

/**
 * The records the fields of these versions of one record name, by id: their names, null for
 * one not on this computer (deleted, or never synced here). A refused change beside the
 * remote's version shows both by name.
 */
export async function referencedNames(
  records: RecordStore,
  resource: string,
  versions: readonly (Record<string, unknown> | null | undefined)[],
): Promise<Record<string, string | null>> {
  const names: Record<string, string | null> = {};
  for (const version of versions) {
    for (const [field, value] of Object.entries(version ?? {})) {
      if (field === 'id' || typeof value !== 'string' || !isUuid(value) || !referencedModule(resource, field)) continue;
      names[value] = await referencedName(records, resource, field, value, true);
    }
  }
  return names;
}
