/**
 * Operations declared once in shared/ (shared/operation.ts, docs/architecture.md "Operations"):
 * the same declaration checks a body (every problem with its path), types the handler's input
 * and the client's body, and gives the OpenAPI document its schema.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { FieldProblem } from '../../shared/errors.js';
import { checkBody, defineOperation, jsonSchemaOf, operationPath, shape, type BodyOf, type AnswerOf } from '../../shared/operation.js';
import { moveCardsOperation, type CommandResult } from '../../shared/operations/commands.js';
import { markExportedOperation, startTimerOperation } from '../../shared/operations/time-tracking.js';

const id = '0190F3A0-0000-7000-8000-0000000000E1';

const planOperation = defineOperation<{ end: string }>()({
  method: 'POST',
  path: '/collection/:id/board/:board_id',
  summary: 'Plan',
  tag: 'Collection',
  body: shape.object({
    start: shape.optional(shape.date()),
    reverse: shape.optional(shape.boolean()),
    capacity: shape.optional(shape.choice(['finite', 'infinite'] as const)),
    resources: shape.optional(shape.list(shape.uuid(), { max: 3 })),
    hours: shape.optional(shape.integer(0, 24)),
    note: shape.optional(shape.text(5)),
  }),
  answer: 'The plan',
});

describe('an operation body', () => {
  it('lets a good body through, ids in lower case and left-out optional fields absent', () => {
    const { value, problems } = checkBody(planOperation.body, { start: '2026-12-01', resources: [id], reverse: null });
    expect(problems).toEqual([]);
    expect(value).toEqual({ start: '2026-12-01', resources: [id.toLowerCase()] });
  });

  it('names every problem by its path, in the order of the declaration', () => {
    const { problems } = checkBody(planOperation.body, {
      start: '2026-02-30',
      reverse: 'yes',
      capacity: 'endless',
      resources: [id, 'nope', id, id],
      hours: 25,
      note: 'far too long',
      colour: 'red',
    });
    expect(problems.map((p: FieldProblem) => p.field)).toEqual(['start', 'reverse', 'capacity', 'resources', 'hours', 'note', 'colour']);
    expect(problems.find((p) => p.field === 'capacity')?.description).toBe('capacity must be one of finite, infinite');
    expect(checkBody(planOperation.body, { resources: [id, 'nope'] }).problems).toEqual([
      { field: 'resources.1', description: 'resources.1 must be a UUID' },
    ]);
  });

  it('takes the named other fields of an item, refuses the rest, and an item that changes nothing', () => {
    const { value, problems } = checkBody(moveCardsOperation.body, {
      cards: [{ id, start_date: '2026-12-01' }, { id, title: 'x' }, { id }, 5, { start_date: '2026-12-01' }],
    });
    expect(problems.map((p) => p.field)).toEqual(['cards.1.title', 'cards.2', 'cards.3', 'cards.4.id']);
    expect(value.cards[0]).toEqual({ id: id.toLowerCase(), start_date: '2026-12-01' });
    expect(checkBody(moveCardsOperation.body, {}).problems).toEqual([{ field: 'cards', description: 'cards is required' }]);
    expect(checkBody(moveCardsOperation.body, { cards: [] }).problems[0]?.field).toBe('cards');
    expect(checkBody(moveCardsOperation.body, { cards: [{ id, stage_id: id }], description: '   ' }).problems[0]?.field).toBe(
      'description',
    );
  });

  it('types the handler input and the client body from the declaration', () => {
    expectTypeOf<BodyOf<typeof planOperation>>().toEqualTypeOf<{
      start?: string;
      reverse?: boolean;
      capacity?: 'finite' | 'infinite';
      resources?: string[];
      hours?: number;
      note?: string;
    }>();
    expectTypeOf<AnswerOf<typeof moveCardsOperation>>().toEqualTypeOf<CommandResult>();
    expectTypeOf<BodyOf<typeof moveCardsOperation>['cards'][number]['id']>().toEqualTypeOf<string>();
  });

  it('is shown in the OpenAPI document as JSON Schema', () => {
    expect(jsonSchemaOf(moveCardsOperation.body)).toMatchObject({
      type: 'object',
      required: ['cards'],
      additionalProperties: false,
      properties: {
        description: { type: 'string', maxLength: 200 },
        cards: {
          type: 'array',
          minItems: 1,
          maxItems: 1000,
          items: { type: 'object', required: ['id'], properties: { id: { type: 'string', format: 'uuid' }, start_date: {} } },
        },
      },
    });
  });

  it('lists null among the types of a field that may be cleared', () => {
    expect(jsonSchemaOf(markExportedOperation.body)).toMatchObject({
      properties: { external_note: { type: ['string', 'null'] } },
    });
  });

  it('fills in a path with its parameters, encoded', () => {
    expect(operationPath(planOperation, { id: 'a b', board_id: 'c' })).toBe('/v1/collection/a%20b/board/c');
    expect(() => operationPath(planOperation, { id: 'a' })).toThrow(/board_id/);
  });

  it('keeps null where a field may be cleared, and hands on the other keys an object takes to their own checks', () => {
    expect(checkBody(markExportedOperation.body, { external_note: null }).value).toEqual({ external_note: null });
    expect(checkBody(markExportedOperation.body, {}).value).toEqual({});
    expect(checkBody(markExportedOperation.body, { external_note: 5 }).problems[0]?.field).toBe('external_note');
    const started = checkBody(startTimerOperation.body, { card_id: 'checked by the entry', user_id: id });
    expect(started).toEqual({ value: { card_id: 'checked by the entry', user_id: id.toLowerCase() }, problems: [] });
    expectTypeOf<BodyOf<typeof markExportedOperation>>().toEqualTypeOf<{ external_note?: string | null }>();
    expectTypeOf<BodyOf<typeof startTimerOperation>>().toMatchTypeOf<{ user_id?: string; card_id?: unknown }>();
  });
});
