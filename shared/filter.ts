/**
 * The `filter` query grammar of the public API (docs/API.md "filter"), parsed into a tree.
 *
 *   expression := and-group (",or," and-group)*
 *   and-group  := primary (",and," primary)*
 *   primary    := "(" expression ")" | atom
 *   atom       := field ":" ["not:"] operator ":" value
 *   value      := "'" any characters but "'" "'" | characters up to "," or ")"
 *
 * `,and,` binds tighter than `,or,`. Unquoted values may contain `:` (as in
 * `created_at:gt:2020-09-01T10:00:00Z`); quoted values may also contain `,` and `)`.
 * The unquoted word `null` means "no value". The tree is compiled to parameterised SQL by
 * the store and never spliced into a query as text.
 */

export const filterOperators = ['eq', 'gt', 'gte', 'lt', 'lte', 'has', 'contains', 'starts_with', 'ends_with'] as const;

export type FilterOperator = (typeof filterOperators)[number];

export interface FilterAtom {
  kind: 'atom';
  field: string;
  operator: FilterOperator;
  not: boolean;
  /** The literal text; `null` when the value was the unquoted word `null`. */
  value: string | null;
}

export interface FilterGroup {
  kind: 'and' | 'or';
  items: FilterNode[];
}

export type FilterNode = FilterAtom | FilterGroup;

export class FilterSyntaxError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message);
  }
}

const maxFilterLength = 8192;
const maxDepth = 32;
const fieldPattern = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;

export function parseFilter(source: string): FilterNode {
  if (source.length > maxFilterLength) {
    throw new FilterSyntaxError(`filter is longer than ${maxFilterLength} characters`, 0);
  }
  let pos = 0;
  let depth = 0;

  const fail = (message: string): never => {
    throw new FilterSyntaxError(`${message} at position ${pos + 1}`, pos);
  };

  const parseExpression = (): FilterNode => {
    const items = [parseAndGroup()];
    while (source.startsWith(',or,', pos)) {
      pos += 4;
      items.push(parseAndGroup());
    }
    return items.length === 1 ? items[0]! : { kind: 'or', items };
  };

  const parseAndGroup = (): FilterNode => {
    const items = [parsePrimary()];
    while (source.startsWith(',and,', pos)) {
      pos += 5;
      items.push(parsePrimary());
    }
    return items.length === 1 ? items[0]! : { kind: 'and', items };
  };

  const parsePrimary = (): FilterNode => {
    if (source[pos] === '(') {
      if (++depth > maxDepth) fail(`parentheses nested deeper than ${maxDepth}`);
      pos++;
      const inner = parseExpression();
      if (source[pos] !== ')') fail("missing ')'");
      pos++;
      depth--;
      return inner;
    }
    return parseAtom();
  };

  const readSegment = (what: string): string => {
    const end = source.indexOf(':', pos);
    if (end === -1) fail(`expected ':' after ${what}`);
    const segment = source.slice(pos, end);
    pos = end + 1;
    return segment;
  };

  const parseAtom = (): FilterAtom => {
    if (pos >= source.length) fail('expected a condition like field:eq:value');
    const fieldStart = pos;
    const field = readSegment('the field name');
    if (!fieldPattern.test(field)) {
      pos = fieldStart;
      fail(`"${field}" is not a field name`);
    }
    let operatorStart = pos;
    let operator = readSegment(`field ${field}`);
    let not = false;
    if (operator === 'not') {
      not = true;
      operatorStart = pos;
      operator = readSegment(`'not' in the condition on ${field}`);
    }
    if (!(filterOperators as readonly string[]).includes(operator)) {
      pos = operatorStart;
      fail(`unknown operator "${operator}" (use ${filterOperators.join(', ')}, optionally after not)`);
    }
    let value: string | null;
    if (source[pos] === "'") {
      const end = source.indexOf("'", pos + 1);
      if (end === -1) fail('unterminated quoted value');
      value = source.slice(pos + 1, end);
      pos = end + 1;
    } else {
      let end = pos;
      while (end < source.length && source[end] !== ',' && source[end] !== ')') end++;
      const text = source.slice(pos, end);
      if (text.includes("'")) fail('a quote may only open a value');
      value = text === 'null' ? null : text;
      pos = end;
    }
    if (pos < source.length && source[pos] !== ')' && !source.startsWith(',and,', pos) && !source.startsWith(',or,', pos)) {
      fail("expected ',and,', ',or,' or ')' after a condition (quote values that contain ',')");
    }
    return { kind: 'atom', field, operator: operator as FilterOperator, not, value };
  };

  const tree = parseExpression();
  if (pos < source.length) {
    fail(source[pos] === ')' ? "unbalanced ')'" : 'unexpected text');
  }
  return tree;
}

/** Every atom of a tree, in order (used to check fields before compiling). */
export function filterAtoms(node: FilterNode): FilterAtom[] {
  return node.kind === 'atom' ? [node] : node.items.flatMap(filterAtoms);
}

/**
 * The pieces of a planner's text a quoted filter value can hold. The grammar has no escape for
 * a quote inside a quoted value, and an unquoted value may not hold one either, so the text is
 * split at quotes (trimmed, empty pieces dropped); a caller requires every piece to match.
 */
export function quoteFreePieces(text: string): string[] {
  return text
    .split("'")
    .map((piece) => piece.trim())
    .filter(Boolean);
}

/**
 * A filter that finds `text` in any of `fields` (`contains`, so without regard to case), for
 * the screens' search boxes. Every quote-free piece must be found: "O'Brien" finds what holds
 * both "O" and "Brien". Undefined when there is nothing to search for.
 */
export function textSearchFilter(text: string, fields: readonly string[]): string | undefined {
  const pieces = quoteFreePieces(text);
  if (pieces.length === 0) return undefined;
  return pieces.map((piece) => `(${fields.map((field) => `${field}:contains:'${piece}'`).join(',or,')})`).join(',and,');
}
