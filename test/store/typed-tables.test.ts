/**
 * Typed records from the store up (issue 19): a table handle from `tables` gives records typed
 * by its declaration (`StoredOf`), json columns as declared in shared/, and a write that names
 * a field the table does not have is a type error. The broad `TableDef` still gives a
 * `StoredRecord`. The type assertions are checked by `tsc` (tsconfig.json includes test/), the
 * values by running against a real SQLite file.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { CustomFieldValue } from '../../shared/custom-fields.js';
import type { ResourceSpec } from '../../shared/fields.js';
import type { ResourceBoard, ResourceWorkdays } from '../../shared/resources/resource.js';
import { DataDir } from '../../electron/store/data-dir.js';
import type { ResourceRules } from '../../electron/api/resource.js';
import type { EnvironmentStore } from '../../electron/store/environment-store.js';
import type { StoredRecord } from '../../shared/fields.js';
import type { TableDef } from '../../electron/store/table-def.js';
import type { cardSpec } from '../../shared/resources/card.js';
import { tables } from '../../electron/api/tables.js';
import { tempDir } from '../helpers/api.js';

let folder: string;
let dataDir: DataDir;
let store: EnvironmentStore;

beforeAll(() => {
  folder = tempDir('planner-typed-');
  dataDir = DataDir.open(join(folder, 'data'));
  store = dataDir.environment(dataDir.system.ensureEnvironment('alpha').id);
});

afterAll(() => {
  dataDir.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('typed tables', () => {
  it('types a card read through tables.card by its declaration', () => {
    const card = store.get(tables.card, '00000000-0000-7000-8000-000000000000');
    expect(card).toBeUndefined();
    expectTypeOf(card).toEqualTypeOf<NonNullable<typeof card> | undefined>();
    type Card = NonNullable<typeof card>;
    expectTypeOf<Card['id']>().toEqualTypeOf<string>();
    expectTypeOf<Card['stage_id']>().toEqualTypeOf<string>();
    expectTypeOf<Card['start_date']>().toEqualTypeOf<string | null>();
    expectTypeOf<Card['custom_fields']>().toEqualTypeOf<CustomFieldValue[]>();
    // Virtual fields are not stored: a card's deprecated `date` is not a column.
    expectTypeOf<Card>().not.toHaveProperty('date');
  });

  it('reads json columns as their declared shapes', () => {
    // The store writes what it is given (defaults are the API's: checkWrite), so all of it here.
    const board = store.insert(tables.board, {
      name: 'Assembly',
      workdays: { '1': true, '2': true, '3': true, '4': true, '5': true, '6': false, '7': false },
    });
    const stage = store.insert(tables.stage, { name: 'Welding', board_id: board.id });
    const written = store.insert(tables.resource, {
      name: 'Anna',
      workdays: { '1': 8, '2': 8, '3': 8, '4': 8, '5': 8, '6': null, '7': null },
      boards: [{ id: board.id, active: true, stages: [{ id: stage.id, percentage: 60, active: true }] }],
    });
    const resource = store.get(tables.resource, written.id)!;
    expectTypeOf(resource.boards).toEqualTypeOf<ResourceBoard[]>();
    expectTypeOf(resource.workdays).toEqualTypeOf<ResourceWorkdays>();
    expectTypeOf(board.workdays['6']).toEqualTypeOf<boolean>();
    // Typed all the way down: no cast to reach a stage's percentage.
    expect(resource.boards[0]!.stages[0]!.percentage).toBe(60);
    expect(resource.workdays['1']).toBe(8);
    expect(board.workdays['6']).toBe(false);

    const updated = store.update(tables.resource, resource.id, { name: 'Anna B.' });
    expect(updated?.name).toBe('Anna B.');
    expect(store.getWhereIn(tables.stage, 'board_id', [board.id]).map((s) => s.name)).toEqual(['Welding']);
  });

  it('refuses, at compile time, a write of a field the table does not have', () => {
    const board = store.insert(tables.board, { name: 'Painting' });
    // @ts-expect-error a board has no `colour` (it is `color`)
    store.update(tables.board, board.id, { colour: 'red' });
    // @ts-expect-error `name` is a string (never run: the store would keep the number)
    const wrongType = () => store.update(tables.board, board.id, { name: 7 });
    expectTypeOf(wrongType).toBeFunction();
    // @ts-expect-error a board has no `stage_id` to look records up by (nor at run time)
    expect(() => store.getWhereIn(tables.board, 'stage_id', [board.id])).toThrow('Unknown field: stage_id');
    // At run time the store drops a field its table does not have.
    expect(store.get(tables.board, board.id)).not.toHaveProperty('colour');
    expect(store.get(tables.board, board.id)?.name).toBe('Painting');
  });

  it('keeps a table named at run time as the broad record', () => {
    const broad: TableDef = tables.board;
    const record = store.get(broad, '00000000-0000-7000-8000-000000000000');
    expectTypeOf(record).toEqualTypeOf<StoredRecord | undefined>();
    expectTypeOf(store.list(broad, { limit: 1, offset: 0 }).rows).toEqualTypeOf<StoredRecord[]>();
    // Any field may be written through the broad handle, as before.
    expectTypeOf(store.update<ResourceSpec>)
      .parameter(2)
      .toEqualTypeOf<Partial<StoredRecord>>();
    expect(record).toBeUndefined();
  });

  it("types the records a resource's rules get when they name their declaration", () => {
    type AfterWrite = NonNullable<ResourceRules<typeof cardSpec>['afterWrite']>;
    expectTypeOf<Parameters<AfterWrite>[2]['start_date']>().toEqualTypeOf<string | null>();
    type BroadDelete = NonNullable<ResourceRules['checkDelete']>;
    expectTypeOf<Parameters<BroadDelete>[2]>().toEqualTypeOf<StoredRecord>();
    const rules: ResourceRules<typeof cardSpec> = {
      checkDelete: (_ctx, _tx, card) => (card.start_date === null ? [] : [{ field: 'start_date', description: 'planned' }]),
    };
    expect(rules.checkDelete).toBeTypeOf('function');
  });
});
