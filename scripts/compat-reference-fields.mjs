#!/usr/bin/env node
/**
 * Writes test/compat/reference-fields.json from the public API's reference (API-REFERENCE.md in
 * the team's shared folder, outside this repository): for every resource the fields its tables
 * and field lists name, every `with` value its eager-loading table names per endpoint, the card's
 * `include` extras and the keys of `GET /me`. test/compat/reference-coverage.test.ts asserts that
 * the API returns and accepts each of them, or that docs/API.md "Compatibility" says why not.
 *
 *   node scripts/compat-reference-fields.mjs ../shared/API-REFERENCE.md
 *
 * Run it again when the reference changes, and commit the JSON with the test that reads it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const source = process.argv[2];
if (!source) {
  console.error('usage: node scripts/compat-reference-fields.mjs <path to API-REFERENCE.md>');
  process.exit(2);
}
const text = readFileSync(source, 'utf8');
const lines = text.split('\n');

/** The resources each section of §4 describes, by the words of its heading. */
const sectionResources = [
  ['Board', ['board']],
  ['Stage', ['stage']],
  ['Activity', ['activity']],
  ['Resource', ['resource', 'schedule_deviation']],
  ['Group', ['group']],
  ['User', ['user']],
  ['Space', ['space']],
  ['Collection', ['collection']],
  ['Card', ['card']],
  ['Checklist', ['checklist', 'checklist_item']],
  ['Attachment', ['attachment']],
  ['Comment', ['comment']],
  ['TimeTracking', ['time_tracking']],
  ['OrderRow', ['order_row']],
  ['Order', ['order']],
  ['Item', ['item']],
  ['Project, Relation, Warehouse', ['project', 'relation', 'warehouse']],
  ['Webhook', ['webhook']],
  ['CustomField', ['custom_field']],
];

const resources = {};
function fieldsOf(name, section) {
  resources[name] ??= { section, fields: [], hints: {} };
  return resources[name];
}
function add(name, section, names, hint) {
  const entry = fieldsOf(name, section);
  for (const field of names) {
    if (!entry.fields.includes(field)) entry.fields.push(field);
    if (hint) entry.hints[field] = hint;
  }
}

/** Splits at commas outside parentheses and braces. */
function topLevelItems(list) {
  const items = [];
  let depth = 0;
  let current = '';
  for (const c of list) {
    if (c === '(' || c === '{' || c === '[') depth++;
    if (c === ')' || c === '}' || c === ']') depth--;
    if (c === ',' && depth === 0) {
      items.push(current);
      current = '';
    } else current += c;
  }
  items.push(current);
  return items.map((item) => item.trim()).filter(Boolean);
}

/** Field names of a prose list: `avatar (+_checksum, _signature)` gives three. */
function namesOfList(list) {
  const names = [];
  for (const item of topLevelItems(list)) {
    const clean = item.replace(/`/g, '');
    const suffixed = /^(\w+) \(\+([^)]*)\)/.exec(clean);
    if (suffixed) {
      names.push(suffixed[1], ...suffixed[2].split(',').map((s) => suffixed[1] + s.trim()));
      continue;
    }
    const name = /^([a-z][a-z0-9_]*)\b/.exec(clean);
    if (name) names.push(name[1]);
  }
  return names;
}

/** Names in a field table's first cell: `a, b`, `start_date / end_date`, `x_min / _max`. */
function namesOfCell(cell) {
  const names = [];
  for (const part of cell.replace(/`/g, '').split(/\s*[,/]\s*/)) {
    if (/^_[a-z]+$/.test(part) && names.length > 0) names.push(names[names.length - 1].replace(/_[a-z]+$/, part));
    else if (/^[a-z][a-z0-9_]*$/.test(part)) names.push(part);
  }
  return names;
}

function tableRows(start) {
  const rows = [];
  for (let i = start; i < lines.length && lines[i].includes('|'); i++) {
    if (/^[\s|:-]+$/.test(lines[i])) continue;
    rows.push(lines[i].split('|').map((cell) => cell.trim()));
  }
  return rows;
}

// ---- §4: field tables and field lists, section by section.
const headings = lines.flatMap((line, i) => (/^### 4\.\d+ /.test(line) ? [i] : []));
headings.push(lines.findIndex((line, i) => i > headings[headings.length - 1] && /^## /.test(line)));
for (let h = 0; h < headings.length - 1; h++) {
  const title = lines[headings[h]].replace(/^### /, '');
  const words = title.replace(/^4\.\d+ /, '');
  const match = sectionResources.find(([heading]) => words.startsWith(heading));
  if (!match) continue;
  const [, names] = match;
  const main = names[0];
  const body = lines.slice(headings[h] + 1, headings[h + 1]);
  for (let i = 0; i < body.length; i++) {
    const line = body[i];
    // A field table: its header's first cell is "Field".
    if (/^Field \|/.test(line)) {
      for (const row of tableRows(headings[h] + 1 + i + 1)) {
        const [cell, type = '', ...notes] = row;
        const described = `${type} ${notes.join(' ')}`;
        const hint = /write-only/.test(described) ? 'write-only' : /\*\*deprecated\*\*/.test(described) ? 'deprecated' : undefined;
        add(main, title, namesOfCell(cell), hint);
        // A board's labels and statuses are objects of their own: `{name (R), color, priority}`.
        const inner = /`\{([^}]*)\}`/.exec(described);
        if (main === 'board' && (cell === 'labels' || cell === 'statuses')) {
          add(cell === 'labels' ? 'label' : 'status', title, namesOfList(inner ? inner[1] : ''));
        }
      }
      continue;
    }
    // Prose lists: "Fields [3p MC]: a, b.", "User fields …: …", "* Project: … Fields: …".
    const bullet = /^\* (Project|Relation|Warehouse)\b.*?Fields: (.+?)(?: \[[^\]]*\])?\.?$/.exec(line);
    if (bullet) {
      add(bullet[1].toLowerCase(), title, namesOfList(bullet[2]));
      continue;
    }
    const deviation = /^Schedule deviation \(absence\) fields[^:]*: (.+?)\. Schedule day rows/.exec(line);
    if (deviation) {
      add('schedule_deviation', title, namesOfList(deviation[1]));
      continue;
    }
    const checklist = /^Checklist: (.+?)\. Item \(from example\): (.+?)\.$/.exec(line);
    if (checklist) {
      add('checklist', title, namesOfList(checklist[1]));
      add('checklist_item', title, namesOfList(checklist[2]));
      continue;
    }
    if (main === 'custom_field' && /^On board/.test(line)) {
      add('custom_field', title, namesOfList(line.slice(line.indexOf(']: ') + 3).split('. Real client')[0]));
      continue;
    }
    const prose = /(?:^|\. )(?:User )?[Ff]ields(?: seen)?(?: \[[^\]]*\])?: (.+?)(?:\. [A-Z`]|\.$|$)/.exec(line);
    if (prose && prose[1].trim()) {
      add(main, title, namesOfList(prose[1]));
      // The order row's page "also names `unit` and `quantity`".
      const also = /also names `(\w+)` and `(\w+)`/.exec(line);
      if (also) add(main, title, [also[1], also[2]]);
    }
  }
}

// ---- §2.1: "Most objects also carry deleted_at … [3p MC field lists for activity, …]".
const carry = /Most objects also carry `deleted_at`.*?\[3p MC field lists for ([^\]]+)\]/.exec(text);
if (!carry) throw new Error('§2.1 deleted_at sentence not found');
for (const name of carry[1].split(',').map((s) => s.trim())) add(name, '2.1 Base URL, versioning, formats', ['deleted_at']);

// ---- §2.8: `with` values per endpoint.
const withStart = lines.findIndex((line) => /^Endpoint \| `with` values/.test(line));
if (withStart < 0) throw new Error('§2.8 with table not found');
const withValues = [];
for (const [endpoint, cell] of tableRows(withStart + 1)) {
  let values;
  if (/^same set/.test(cell)) values = [...withValues[withValues.length - 1].values];
  else {
    const plain = cell.replace(/\([^)]*\)/g, '').replace(/"[^"]*"/g, '');
    values = plain
      .split(/[,;]/)
      .map((s) => s.trim().replace(/`/g, ''))
      .filter((s) => /^[A-Za-z_]+$/.test(s));
  }
  withValues.push({ endpoint, values: [...new Set(values)] });
}

// ---- The card's `include` extras.
const include = /Card-only `include` query \(array\): ([^(]+)\(/.exec(text);
if (!include) throw new Error('card include sentence not found');
const cardIncludes = include[1]
  .split(',')
  .map((s) => s.trim().replace(/`/g, ''))
  .filter(Boolean);

// ---- §3.4: the keys of GET /me and of its environment.
const meStart = lines.findIndex((line) => /^Key \| Shape/.test(line));
const meKeys = [];
let environmentKeys = [];
for (const [key, shape] of tableRows(meStart + 1)) {
  const named = /^`([^`]+)`$/.exec(key);
  if (named) meKeys.push(named[1]);
  if (named?.[1] === 'environment') environmentKeys = namesOfList(/\{([^}]*)\}/.exec(shape)[1]);
  if (/also seen live/.test(key)) meKeys.push(...[...shape.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]));
}

const out = {
  generatedFrom: "API-REFERENCE.md (the team's reconstructed reference of the public API)",
  generatedBy: 'scripts/compat-reference-fields.mjs',
  resources: Object.fromEntries(Object.entries(resources).sort(([a], [b]) => a.localeCompare(b))),
  with: withValues,
  include: { card: cardIncludes },
  me: { keys: meKeys, environment: environmentKeys },
};
const target = join(root, 'test', 'compat', 'reference-fields.json');
writeFileSync(target, `${JSON.stringify(out, null, 2)}\n`);
console.log(`${target}: ${Object.keys(out.resources).length} resources, ${withValues.length} endpoints with \`with\` values`);
