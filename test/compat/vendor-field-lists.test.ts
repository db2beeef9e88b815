/**
 * A vendor's field lists (docs/API.md "Compatibility"): a commercial connector whose generated
 * reference lists each resource's fields, `deleted_at` among them, and which asks for exactly
 * those with `show`, syncs by `updated_at` and reads deletions. Its lists are the ones
 * public API's reference credits to it (test/compat/reference-fields.json); the requests are written as
 * such a connector sends them (test/helpers/public-client.ts).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { expectStatus, publicClient, type PublicClient } from '../helpers/public-client.js';

const reference = JSON.parse(readFileSync(new URL('./reference-fields.json', import.meta.url), 'utf8'));
const listOf = (resource: string): string[] => reference.resources[resource].fields;

let api: TestApi;
let vplan: PublicClient;

beforeAll(async () => {
  api = await startTestApi();
  vplan = publicClient(api);
});
afterAll(async () => {
  await api.close();
});

describe("a vendor's field lists", () => {
  it('asks for exactly its field list with show and gets every field of it, deleted_at null on live records', async () => {
    const relation = expectStatus(await vplan.post('relation', { name: 'Acme', type: 'customer', email: 'buy@acme.example' }), 201);
    const bodies: [string, Record<string, unknown>][] = [
      ['project', { name: 'Harbour', code: 'H-1' }],
      ['relation', { name: 'Beta', type: 'supplier' }],
      ['warehouse', { name: 'Main', code: 'W1' }],
      ['item', { description: 'Steel plate', code: 'SP-4', unit: 'pcs' }],
      ['order', { code: 'SO-9', type: 'Sales', relation_id: relation.id }],
    ];
    for (const [resource, body] of bodies) {
      const record = expectStatus(await vplan.post(resource, body), 201, resource);
      const fields = listOf(resource);
      expect(fields, resource).toContain('created_at');
      const one = expectStatus(await vplan.get(`${resource}/${record.id}`, { show: fields.join(',') }), 200);
      expect(Object.keys(one).sort(), resource).toEqual([...fields].sort());
      const listed = expectStatus(await vplan.get(resource, { show: [...fields, 'deleted_at'].join(','), id: record.id }), 200);
      expect(listed.data, resource).toEqual([{ ...one, deleted_at: null }]);
    }
  });

  it('syncs by updated_at and sees each live record with deleted_at null; a deleted one leaves the list and the trash gives its deleted_at', async () => {
    const since = '2020-01-01T00:00:00Z';
    const stage = async () => {
      const board = expectStatus(await vplan.post('board', { name: 'Sync board', stages: [{ name: 'One', priority: 0 }] }), 201);
      return expectStatus(await vplan.get('stage', { board_id: board.id }), 200).data[0];
    };
    const kept = await stage();
    const gone = await stage();
    const page = expectStatus(
      await vplan.get('stage', { filter: `updated_at:gt:'${since}'`, sort: 'updated_at:asc', show: listOf('stage').join(',') }),
      200,
    );
    for (const record of page.data) {
      expect(Object.keys(record).sort()).toEqual(
        listOf('stage')
          .filter((f) => f !== 'activities')
          .sort(),
      );
      expect(record.deleted_at).toBeNull();
    }
    expect((await vplan.delete(`stage/${gone.id}`)).status).toBe(204);
    const after = expectStatus(await vplan.get('stage', { filter: `updated_at:gt:'${since}'` }), 200).data.map((s: any) => s.id);
    expect(after).toContain(kept.id);
    expect(after).not.toContain(gone.id);
    const trash = expectStatus(await vplan.get('trash/stage'), 200).data;
    expect(trash.find((s: any) => s.id === gone.id).deleted_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  });

  it('finds deleted_at in the OpenAPI schema of every record, read-only and nullable', async () => {
    const { schemas } = expectStatus(await vplan.get('openapi.json'), 200).components;
    const records = Object.keys(schemas).filter((name) => name !== 'Error' && !name.endsWith('Input'));
    expect(records.length).toBeGreaterThan(20);
    for (const name of records) {
      expect(schemas[name].properties.deleted_at, name).toMatchObject({ type: ['string', 'null'], format: 'date-time', readOnly: true });
      expect(schemas[`${name}Input`].properties, name).not.toHaveProperty('deleted_at');
    }
  });
});
