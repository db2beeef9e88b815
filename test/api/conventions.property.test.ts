/**
 * Randomized checks of the list conventions (docs/API.md "Lists"):
 *
 *  (a) any valid filter over a fixed set of 40 orders returns exactly the orders that an
 *      in-memory evaluator of the documented semantics picks: a comparison with a missing
 *      value is false, `not` negates the whole atom, contains/starts_with/ends_with ignore
 *      ASCII case, numbers compare as numbers, dates as ISO text, `,and,` binds tighter
 *      than `,or,`, quoted values may hold `,` `:` `)`, the unquoted word null means no value;
 *  (b) garbage in filter, sort, show, hide, with, limit and offset is answered with a 4xx and
 *      the error body, or a 200 — never a 5xx.
 *
 * Requests go through Fastify inject for speed; the evaluator is written here, independently
 * of the implementation, from the documentation.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderTypes } from '../../shared/resources/order.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { expectErrorBody } from '../helpers/api-errors.js';

// ------------------------------------------------------------------------------ the dataset

const codes = [
  'ALPHA-1',
  'alpha-2',
  'Beta, Inc: (x)',
  'beta-4',
  '50%_off',
  'a_b',
  'A%B',
  'x\\y',
  'Gamma (g)',
  'gamma',
  'delta:1',
  '',
  ' lead',
  'trail ',
  'null',
  'MiXeD',
  'zeta,z',
  'a)b',
  '10',
  '9',
  null,
  null,
] as const;
const quantities = [5, 12.5, 0, null, 100, -3, 2, 2.25, 1000, -0.5, 7, 10, 99.99, null] as const;
const dates = ['2024-03-01', '2024-03-15', null, '2024-12-31', '2025-01-01', '2023-06-30', '2024-02-29', '2020-01-01', null] as const;
const statuses = ['open', 'done', 'late', null, 'Open', 'DONE', 'on hold', 'a,b', 'null'] as const;
const types = [...orderTypes, null] as const;

interface OrderValues {
  code: string | null;
  quantity: number | null;
  promised_date: string | null;
  status: string | null;
  type: string | null;
}

/** 40 orders; the strides (coprime with the pool sizes) mix the values. */
const dataset: OrderValues[] = Array.from({ length: 40 }, (_, i) => ({
  code: codes[i % codes.length]!,
  quantity: quantities[(i * 5) % quantities.length]!,
  promised_date: dates[(i * 2) % dates.length]!,
  status: statuses[(i * 4) % statuses.length]!,
  type: types[(i * 3) % types.length]!,
}));

// ------------------------------------------------------------------ expressions and their meaning

type Field = keyof OrderValues;
type Operator = 'eq' | 'gt' | 'gte' | 'lt' | 'lte' | 'contains' | 'starts_with' | 'ends_with';
type Connective = 'and' | 'or';

interface Atom {
  kind: 'atom';
  field: Field;
  operator: Operator;
  not: boolean;
  value: string | null;
  /** Quote the value even when it need not be. */
  quote: boolean;
}
interface Group {
  kind: 'group';
  expression: Expression;
}
type Term = Atom | Group;
interface Expression {
  first: Term;
  rest: [Connective, Term][];
}

function renderValue(atom: Atom): string {
  if (atom.value === null) return 'null';
  const mustQuote = /[,)]/.test(atom.value) || atom.value === 'null';
  return atom.quote || mustQuote ? `'${atom.value}'` : atom.value;
}

function renderTerm(term: Term): string {
  if (term.kind === 'group') return `(${render(term.expression)})`;
  return `${term.field}:${term.not ? 'not:' : ''}${term.operator}:${renderValue(term)}`;
}

function render(expression: Expression): string {
  return [renderTerm(expression.first), ...expression.rest.map(([c, t]) => `,${c},${renderTerm(t)}`)].join('');
}

const lowerAscii = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());

function compare(operator: Operator, a: string | number, b: string | number): boolean {
  switch (operator) {
    case 'eq':
      return a === b;
    case 'gt':
      return a > b;
    case 'gte':
      return a >= b;
    case 'lt':
      return a < b;
    case 'lte':
      return a <= b;
    case 'contains':
      return lowerAscii(String(a)).includes(lowerAscii(String(b)));
    case 'starts_with':
      return lowerAscii(String(a)).startsWith(lowerAscii(String(b)));
    case 'ends_with':
      return lowerAscii(String(a)).endsWith(lowerAscii(String(b)));
  }
}

/** The documented meaning of one atom on one order. */
function evaluateAtom(atom: Atom, order: OrderValues): boolean {
  const stored = order[atom.field];
  let result: boolean;
  if (atom.value === null)
    result = stored === null; // only eq takes null
  else if (stored === null)
    result = false; // a comparison with a missing value is false
  else if (atom.field === 'quantity') result = compare(atom.operator, stored, Number(atom.value));
  else result = compare(atom.operator, stored, atom.value);
  return atom.not ? !result : result;
}

function evaluate(expression: Expression, order: OrderValues): boolean {
  // `,and,` binds tighter: split into and-groups at every `,or,`.
  const groups: Term[][] = [[expression.first]];
  for (const [connective, term] of expression.rest) {
    if (connective === 'or') groups.push([term]);
    else groups.at(-1)!.push(term);
  }
  const term = (t: Term) => (t.kind === 'group' ? evaluate(t.expression, order) : evaluateAtom(t, order));
  return groups.some((group) => group.every(term));
}

// ---------------------------------------------------------------------------------- arbitraries

/** Value characters: printable ASCII without the quote (there is no escape for it). */
const valueChar = fc.constantFrom(...'abcxyzABGMX-_%\\:,() 0125.'.split(''));
const flipCase = (text: string, flips: boolean[]) =>
  [...text]
    .map((c, i) => (flips[i % Math.max(1, flips.length)] ? (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) : c))
    .join('');

/** A piece of a pool value, maybe with its case changed, or a few random characters. */
function textValue(pool: readonly (string | null)[]): fc.Arbitrary<string> {
  const present = pool.filter((v): v is string => v !== null);
  const piece = fc
    .tuple(fc.constantFrom(...present), fc.nat(), fc.nat(), fc.array(fc.boolean(), { maxLength: 4 }))
    .map(([text, a, b, flips]) => {
      const [from, to] = [a % (text.length + 1), b % (text.length + 1)].sort((x, y) => x - y);
      return flipCase(text.slice(from!, to!), flips);
    });
  return fc.oneof(fc.constantFrom(...present), piece, fc.string({ unit: valueChar, maxLength: 4 }));
}

const numberValue = fc.oneof(
  fc.constantFrom('5', '5.0', '12.5', '-3', '0', '-0', '1e2', '2.25', '99.99', '1000', '-0.5', '10', '9'),
  fc.integer({ min: -20, max: 1100 }).map(String),
  fc.double({ min: -20, max: 200, noNaN: true, noDefaultInfinity: true }).map((n) => String(Math.round(n * 100) / 100)),
);

const dateValue = fc.oneof(
  fc.constantFrom(...dates.flatMap((d) => (d === null ? [] : [d]))),
  fc
    .date({ min: new Date('2019-01-01T00:00:00Z'), max: new Date('2026-01-01T00:00:00Z'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10)),
  fc.constantFrom('2024', '2024-03', '2024-03-1', '2025-'),
);

const textOperators: Operator[] = ['eq', 'gt', 'gte', 'lt', 'lte', 'contains', 'starts_with', 'ends_with'];
const numberOperators: Operator[] = ['eq', 'gt', 'gte', 'lt', 'lte'];

function atomFor(field: Field, operators: Operator[], value: fc.Arbitrary<string>): fc.Arbitrary<Atom> {
  type Comparison = { operator: Operator; value: string | null };
  const compared = fc.record({ operator: fc.constantFrom(...operators), value }).map((c): Comparison => c);
  const missing = fc.constant<Comparison>({ operator: 'eq', value: null });
  return fc
    .tuple(fc.oneof({ weight: 6, arbitrary: compared }, { weight: 1, arbitrary: missing }), fc.boolean(), fc.boolean())
    .map(([{ operator, value }, not, quote]): Atom => ({ kind: 'atom', field, operator, not, value, quote }));
}

const atomArbitrary: fc.Arbitrary<Atom> = fc.oneof(
  atomFor('code', textOperators, textValue(codes)),
  atomFor('status', textOperators, textValue(statuses)),
  atomFor('type', textOperators, textValue(types)),
  atomFor('quantity', numberOperators, numberValue),
  atomFor('promised_date', textOperators, dateValue),
);

const { expression: expressionArbitrary } = fc.letrec<{ expression: Expression; term: Term }>((tie) => ({
  expression: fc.record({
    first: tie('term'),
    rest: fc.array(fc.tuple(fc.constantFrom<Connective>('and', 'or'), tie('term')), { maxLength: 3 }),
  }),
  term: fc.oneof(
    { maxDepth: 3, depthIdentifier: 'filter' },
    atomArbitrary,
    tie('expression').map((expression): Group => ({ kind: 'group', expression })),
  ),
}));

// -------------------------------------------------------------------------------------- tests

let api: TestApi;
/** The id of dataset[i]. */
let ids: string[];

beforeAll(async () => {
  api = await startTestApi();
  ids = [];
  for (const values of dataset) {
    // A description of its own: an order needs a code or a description (docs/API.md "Empty orders"), and codes here may be null.
    const res = await api.inject('POST', '/v1/order', { ...values, description: 'Order' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    ids.push(res.body.id);
  }
});
afterAll(async () => {
  await api.close();
});

describe('filter (randomized)', () => {
  it('returns exactly the orders the documented semantics select', async () => {
    await fc.assert(
      fc.asyncProperty(expressionArbitrary, async (expression) => {
        const filter = render(expression);
        const res = await api.inject('GET', `/v1/order?filter=${encodeURIComponent(filter)}&limit=1000&show=id`);
        expect(res.status, `${filter} → ${JSON.stringify(res.body)}`).toBe(200);
        const actual = res.body.data.map((o: { id: string }) => o.id).sort();
        const expected = ids.filter((_, i) => evaluate(expression, dataset[i]!)).sort();
        expect(actual, filter).toEqual(expected);
        expect(res.body.count).toBe(expected.length);
      }),
      { numRuns: 200 },
    );
  });

  it('selects some but not all orders for many generated filters (the check is not vacuous)', () => {
    const samples = fc.sample(expressionArbitrary, { numRuns: 200, seed: 42 });
    const partial = samples.filter((e) => {
      const n = dataset.filter((o) => evaluate(e, o)).length;
      return n > 0 && n < dataset.length;
    });
    expect(partial.length).toBeGreaterThan(60);
  });
});

// ------------------------------------------------------------------------------------- garbage

const tokens = [
  'code',
  'quantity',
  'promised_date',
  'status',
  'type',
  'order_rows',
  'order_rows.code',
  'project',
  'project.name',
  'collection.activities',
  'supplies_order_rows',
  'item',
  'meta',
  'id',
  'created_at',
  'constructor',
  '__proto__',
  'toString',
  'prototype',
  'nope',
  ':',
  'eq',
  'not',
  'gt',
  'has',
  'contains',
  'like',
  ',and,',
  ',or,',
  ',',
  '(',
  ')',
  "'",
  'null',
  '*',
  '.',
  '0',
  '1',
  '-1',
  '1e309',
  'NaN',
  '999999999999999999999',
  ':asc',
  ':desc',
  '%',
  '_',
  '\\',
  ' ',
  '2024-01-01T10:00:00+02:00',
  '\u0000',
  'é',
  '🙂',
];

const tokenSoup = fc.array(fc.constantFrom(...tokens), { maxLength: 12 }).map((parts) => parts.join(''));

/** A valid filter with a slice removed, a token inserted or a slice repeated. */
const mutatedFilter = fc
  .tuple(expressionArbitrary.map(render), fc.nat(), fc.nat(), fc.constantFrom(...tokens), fc.constantFrom('delete', 'insert', 'repeat'))
  .map(([text, a, b, token, how]) => {
    const [from, to] = [a % (text.length + 1), b % (text.length + 1)].sort((x, y) => x - y) as [number, number];
    if (how === 'delete') return text.slice(0, from) + text.slice(to);
    if (how === 'insert') return text.slice(0, from) + token + text.slice(from);
    return text.slice(0, to) + text.slice(from, to) + text.slice(to);
  });

const garbage = fc.oneof(fc.string({ maxLength: 30 }), fc.string({ unit: 'grapheme', maxLength: 20 }), tokenSoup, mutatedFilter);

const parameters = ['filter', 'sort', 'show', 'hide', 'with', 'limit', 'offset'] as const;

describe('garbage in a query (randomized)', () => {
  async function expectNo5xx(path: string): Promise<void> {
    const res = await api.inject('GET', path);
    expect(res.status, `${path} → ${JSON.stringify(res.body)}`).toBeLessThan(500);
    if (res.status >= 400) expectErrorBody(res.body, res.status === 400 ? 10400 : res.body.errors[0].code, res.body.errors[0].message);
    else expect(res.status).toBe(200);
  }

  it('answers garbage in any list parameter with a 4xx or a 200, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...parameters),
        garbage,
        fc.constantFrom('/v1/order', '/v1/collection', '/v1/project'),
        async (name, value, path) => {
          await expectNo5xx(`${path}?${name}=${encodeURIComponent(value)}`);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('answers garbage in several parameters at once, on lists and single records, never with a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.constantFrom(...parameters), garbage, { maxKeys: 4 }), fc.boolean(), async (query, single) => {
        const search = Object.entries(query)
          .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
          .join('&');
        await expectNo5xx(`${single ? `/v1/order/${ids[0]}` : '/v1/order'}?${search}`);
      }),
      { numRuns: 200 },
    );
  });
});
