/**
 * `show` and `hide` (docs/API.md "show and hide"). A property list such as
 * `id,order_rows.*.code,order.relation.name` becomes a tree; `show` keeps only what the tree
 * names and `hide` removes it. On a list of related records `*` means every item and a number
 * one item; on an object `*` means every property. Names a record does not have are ignored,
 * so a client can send the same list to every endpoint.
 */
import { isPlainObject } from '../../../shared/fields.js';
import { isWhole, markWhole } from './answer-json.js';

export type PathTree = Map<string, PathTree | true>;

const maxPaths = 200;

export function parsePaths(text: string): PathTree {
  const tree: PathTree = new Map();
  const paths = text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)
    .slice(0, maxPaths);
  for (const path of paths) {
    let node = tree;
    const parts = path.split('.');
    for (const [i, part] of parts.entries()) {
      const existing = node.get(part);
      // A property already taken whole stays whole: `project,project.code` is all of project.
      if (existing === true) break;
      if (i === parts.length - 1) {
        node.set(part, true);
        break;
      }
      const child: PathTree = existing ?? new Map();
      node.set(part, child);
      node = child;
    }
  }
  return tree;
}

/** Both paths at once: `*.code` and `0.unit` give item 0 both. Whole (`true`) wins. */
function union(a: PathTree | true | undefined, b: PathTree | true | undefined): PathTree | true | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  if (a === true || b === true) return true;
  const out: PathTree = new Map(a);
  for (const [key, sub] of b) out.set(key, union(out.get(key), sub)!);
  return out;
}

/** What applies to item `index` of a list: its own paths and those of every item (`*`). */
function itemPaths(tree: PathTree, index: number): PathTree | true | undefined {
  return union(tree.get(String(index)), tree.get('*'));
}

/**
 * Copies made by one shaping, by record and path tree: a record the answer holds in many places
 * (a shared resource under every card) is copied once per tree, not once per place.
 */
type Copies = WeakMap<object, Map<PathTree, unknown>>;

function once(value: object, tree: PathTree, copies: Copies, copy: () => unknown): unknown {
  let byTree = copies.get(value);
  if (!byTree) copies.set(value, (byTree = new Map()));
  if (byTree.has(tree)) return byTree.get(tree);
  const made = copy();
  // What is left of a record that embeds nothing embeds nothing either (answer-json.ts).
  if (isWhole(value) && typeof made === 'object' && made !== null) markWhole(made);
  byTree.set(tree, made);
  return made;
}

function showValue(value: unknown, tree: PathTree, copies: Copies): unknown {
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    value.forEach((item, index) => {
      const sub = itemPaths(tree, index);
      if (sub === undefined) return;
      out.push(sub === true ? item : showValue(item, sub, copies));
    });
    return out;
  }
  if (!isPlainObject(value)) return value;
  const source = value;
  return once(source, tree, copies, () => {
    const out: Record<string, unknown> = {};
    const everything = tree.get('*') === true;
    for (const key of Object.keys(source)) {
      const sub = tree.get(key);
      if (sub === undefined) {
        if (everything) out[key] = source[key];
      } else {
        out[key] = sub === true ? source[key] : showValue(source[key], sub, copies);
      }
    }
    return out;
  });
}

function hideValue(value: unknown, tree: PathTree, copies: Copies): unknown {
  if (Array.isArray(value)) {
    return value.flatMap((item, index) => {
      const sub = itemPaths(tree, index);
      if (sub === true) return []; // `hide=order_rows.1` leaves that item out
      return [sub === undefined ? item : hideValue(item, sub, copies)];
    });
  }
  if (!isPlainObject(value)) return value;
  const source = value;
  return once(source, tree, copies, () => {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(source)) {
      const sub = tree.get(key);
      if (sub === true) continue;
      out[key] = sub === undefined ? item : hideValue(item, sub, copies);
    }
    return out;
  });
}

export function applyShape<T>(record: T, options: { show?: PathTree; hide?: PathTree }, copies: Copies = new WeakMap()): T {
  let out: unknown = record;
  if (options.show) out = showValue(out, options.show, copies);
  if (options.hide) out = hideValue(out, options.hide, copies);
  // Showing or hiding paths keeps the record's kind; which fields are left is the caller's ask.
  return out as T;
}

/** applyShape over the records of one answer, each shared record copied once. */
export function applyShapes<T>(records: T[], options: { show?: PathTree; hide?: PathTree }): T[] {
  if (!options.show && !options.hide) return records;
  const copies: Copies = new WeakMap();
  return records.map((record) => applyShape(record, options, copies));
}
