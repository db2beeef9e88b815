/**
 * The `filter` grammar (shared/filter.ts, docs/API.md "filter"): atoms, `not`, `,and,`/`,or,`
 * with `and` binding tighter, parentheses, quoting, `null`, and a syntax error for every way
 * an expression can be malformed, each naming its position.
 */
import { describe, expect, it } from 'vitest';
import {
  FilterSyntaxError,
  filterAtoms,
  filterOperators,
  parseFilter,
  quoteFreePieces,
  textSearchFilter,
  type FilterNode,
} from '../../shared/filter.js';

const atom = (field: string, operator: string, value: string | null, not = false): FilterNode =>
  ({ kind: 'atom', field, operator, not, value }) as FilterNode;

/** The error `parseFilter` throws for `text`. */
function syntaxError(text: string): FilterSyntaxError {
  try {
    parseFilter(text);
  } catch (error) {
    expect(error).toBeInstanceOf(FilterSyntaxError);
    return error as FilterSyntaxError;
  }
  throw new Error(`expected a syntax error for ${JSON.stringify(text)}`);
}

describe('filter atoms', () => {
  it.each(filterOperators)('parses the operator %s', (operator) => {
    expect(parseFilter(`code:${operator}:A-1`)).toEqual(atom('code', operator, 'A-1'));
  });

  it.each(filterOperators)('parses not before the operator %s as a negated atom', (operator) => {
    expect(parseFilter(`code:not:${operator}:A-1`)).toEqual(atom('code', operator, 'A-1', true));
  });

  it('knows exactly the documented operators', () => {
    expect([...filterOperators].sort()).toEqual(['contains', 'ends_with', 'eq', 'gt', 'gte', 'has', 'lt', 'lte', 'starts_with'].sort());
  });

  it('accepts dotted field names for relation fields', () => {
    expect(parseFilter('order_rows.code:eq:R-1')).toEqual(atom('order_rows.code', 'eq', 'R-1'));
  });

  it('accepts has:* (has any)', () => {
    expect(parseFilter('order_rows:has:*')).toEqual(atom('order_rows', 'has', '*'));
  });
});

describe('filter values', () => {
  it('lets an unquoted value contain ":" so date-times need no quotes', () => {
    expect(parseFilter('created_at:gt:2024-01-01T10:00:00Z')).toEqual(atom('created_at', 'gt', '2024-01-01T10:00:00Z'));
  });

  it('reads a quoted date-time the same as an unquoted one', () => {
    expect(parseFilter("created_at:gt:'2023-11-01T13:00:00Z'")).toEqual(parseFilter('created_at:gt:2023-11-01T13:00:00Z'));
  });

  it('lets a quoted value contain ",", ":", ")" and spaces', () => {
    expect(parseFilter("name:eq:'Smith, J.: (senior) ,and, x'")).toEqual(atom('name', 'eq', 'Smith, J.: (senior) ,and, x'));
  });

  it('keeps spaces in an unquoted value', () => {
    expect(parseFilter('name:eq:two words ')).toEqual(atom('name', 'eq', 'two words '));
  });

  it('reads a quoted value inside parentheses, closing only at the quote', () => {
    expect(parseFilter("(name:eq:'a)b',or,name:eq:c)")).toEqual({
      kind: 'or',
      items: [atom('name', 'eq', 'a)b'), atom('name', 'eq', 'c')],
    });
  });

  it('ends an unquoted value at "," or ")"', () => {
    expect(parseFilter('(a:eq:1),and,b:eq:2')).toEqual({ kind: 'and', items: [atom('a', 'eq', '1'), atom('b', 'eq', '2')] });
  });

  it('reads the unquoted word null as "no value"', () => {
    expect(parseFilter('due_date:eq:null')).toEqual(atom('due_date', 'eq', null));
    expect(parseFilter('due_date:not:eq:null')).toEqual(atom('due_date', 'eq', null, true));
  });

  it("reads a quoted 'null' as the text null", () => {
    expect(parseFilter("status:eq:'null'")).toEqual(atom('status', 'eq', 'null'));
  });

  it('reads an empty value, quoted or not, as the empty text', () => {
    expect(parseFilter('code:eq:')).toEqual(atom('code', 'eq', ''));
    expect(parseFilter("code:eq:''")).toEqual(atom('code', 'eq', ''));
  });
});

describe('filter combinations', () => {
  it('binds ,and, tighter than ,or,', () => {
    expect(parseFilter('a:eq:1,or,b:eq:2,and,c:eq:3')).toEqual({
      kind: 'or',
      items: [atom('a', 'eq', '1'), { kind: 'and', items: [atom('b', 'eq', '2'), atom('c', 'eq', '3')] }],
    });
    expect(parseFilter('a:eq:1,and,b:eq:2,or,c:eq:3,and,d:eq:4')).toEqual({
      kind: 'or',
      items: [
        { kind: 'and', items: [atom('a', 'eq', '1'), atom('b', 'eq', '2')] },
        { kind: 'and', items: [atom('c', 'eq', '3'), atom('d', 'eq', '4')] },
      ],
    });
  });

  it('groups with parentheses over precedence', () => {
    expect(parseFilter('(a:eq:1,or,b:eq:2),and,c:eq:3')).toEqual({
      kind: 'and',
      items: [{ kind: 'or', items: [atom('a', 'eq', '1'), atom('b', 'eq', '2')] }, atom('c', 'eq', '3')],
    });
  });

  it('keeps a chain of the same connective as one group', () => {
    expect(parseFilter('a:eq:1,and,b:eq:2,and,c:eq:3')).toEqual({
      kind: 'and',
      items: [atom('a', 'eq', '1'), atom('b', 'eq', '2'), atom('c', 'eq', '3')],
    });
  });

  it('parses nested parentheses', () => {
    expect(parseFilter('((a:eq:1))')).toEqual(atom('a', 'eq', '1'));
    expect(parseFilter('a:eq:1,and,(b:eq:2,or,(c:eq:3,and,d:not:eq:4))')).toEqual({
      kind: 'and',
      items: [
        atom('a', 'eq', '1'),
        { kind: 'or', items: [atom('b', 'eq', '2'), { kind: 'and', items: [atom('c', 'eq', '3'), atom('d', 'eq', '4', true)] }] },
      ],
    });
  });

  it('parses the documented example', () => {
    const tree = parseFilter("created_at:gt:'2023-11-01T13:00:00Z',and,(id:not:starts_with:0000,or,id:contains:FFFF)");
    expect(tree).toEqual({
      kind: 'and',
      items: [
        atom('created_at', 'gt', '2023-11-01T13:00:00Z'),
        { kind: 'or', items: [atom('id', 'starts_with', '0000', true), atom('id', 'contains', 'FFFF')] },
      ],
    });
    expect(filterAtoms(tree).map((a) => a.field)).toEqual(['created_at', 'id', 'id']);
  });
});

describe('filter syntax errors name the problem and its position', () => {
  // [name, text, words the message contains, 0-based position]
  const cases: [string, string, string[], number][] = [
    ['an empty filter', '', ['expected a condition', 'position 1'], 0],
    ['an unknown operator', 'code:like:x', ['unknown operator "like"', 'position 6'], 5],
    ['an unknown operator after not', 'code:not:like:x', ['unknown operator "like"', 'position 10'], 9],
    ['not twice', 'code:not:not:eq:x', ['unknown operator "not"', 'position 10'], 9],
    ['a field without an operator', 'code', ["expected ':'", 'position 1'], 0],
    ['a missing value separator', 'code:eq', ["expected ':'", 'field code', 'position 6'], 5],
    ['a missing value separator after not', 'code:not:eq', ["expected ':'", 'position 10'], 9],
    ['an unbalanced "("', '(code:eq:1', ["missing ')'", 'position 11'], 10],
    ['an unbalanced "(" around a group', '((a:eq:1,or,b:eq:2)', ["missing ')'", 'position 20'], 19],
    ['an unbalanced ")"', 'code:eq:1)', ["unbalanced ')'", 'position 10'], 9],
    ['an unbalanced ")" after a group', '(a:eq:1),or,b:eq:2)', ["unbalanced ')'", 'position 19'], 18],
    ['an unterminated quote', "code:eq:'abc", ['unterminated quoted value', 'position 9'], 8],
    ['a quote inside an unquoted value', "code:eq:O'Brien", ['quote', 'position 9'], 8],
    ['text after a quoted value', "code:eq:'a'b", ["expected ',and,', ',or,' or ')'", 'position 12'], 11],
    ['a comma that is no connective', 'code:eq:a,b', ["expected ',and,', ',or,' or ')'", 'position 10'], 9],
    ['a connective in capitals', 'a:eq:1,AND,b:eq:2', ["expected ',and,', ',or,' or ')'", 'position 7'], 6],
    ['text after a closing parenthesis', '(code:eq:1)x', ['unexpected text', 'position 12'], 11],
    ['a dangling connective', 'code:eq:1,and,', ['expected a condition', 'position 15'], 14],
    ['empty parentheses', '()', ["expected ':'", 'position 2'], 1],
    ['a field name starting with a digit', '1code:eq:x', ['"1code" is not a field name', 'position 1'], 0],
    ['a field name with a space', 'a:eq:1,or,my code:eq:x', ['"my code" is not a field name', 'position 11'], 10],
    ['an empty field name', ':eq:x', ['"" is not a field name', 'position 1'], 0],
    ['a field name with an empty segment', 'order_rows..code:eq:x', ['not a field name', 'position 1'], 0],
  ];

  it.each(cases)('rejects %s', (_name, text, words, position) => {
    const error = syntaxError(text);
    for (const word of words) expect(error.message).toContain(word);
    expect(error.position).toBe(position);
  });

  it('rejects parentheses nested deeper than 32', () => {
    const deep = `${'('.repeat(33)}a:eq:1${')'.repeat(33)}`;
    expect(syntaxError(deep).message).toContain('nested deeper than 32');
    expect(parseFilter(`${'('.repeat(32)}a:eq:1${')'.repeat(32)}`)).toEqual(atom('a', 'eq', '1'));
  });

  it('rejects a filter longer than 8192 characters', () => {
    expect(syntaxError(`code:eq:${'x'.repeat(8192)}`).message).toContain('longer than 8192');
  });
});

describe('textSearchFilter', () => {
  it('finds the text in any of the fields, quoted so commas, colons and brackets are text', () => {
    const filter = textSearchFilter('  a, b:(c) ', ['name', 'description'])!;
    expect(filter).toBe("(name:contains:'a, b:(c)',or,description:contains:'a, b:(c)')");
    expect(() => parseFilter(filter)).not.toThrow();
  });

  it('splits the text at quotes, which a filter value cannot hold, and wants every piece', () => {
    const filter = textSearchFilter("O'Brien's", ['name'])!;
    expect(filter).toBe("(name:contains:'O'),and,(name:contains:'Brien'),and,(name:contains:'s')");
    expect(() => parseFilter(filter)).not.toThrow();
    expect(quoteFreePieces(" ' '' ")).toEqual([]);
  });

  it('is undefined when there is nothing to search for', () => {
    expect(textSearchFilter('   ', ['name'])).toBeUndefined();
    expect(textSearchFilter("''", ['name'])).toBeUndefined();
  });
});
