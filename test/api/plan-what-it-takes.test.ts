/**
 * "What would it take?" in a plan's dry run (docs/API.md "What would it take?"): the plan dialog
 * asks the dry run, and the dry run answers the overtime the Exceptions screen would offer for
 * the plan it made; worked out by hand over real HTTP on either engine. Today is Mon 2026-12-07
 * (the fixed clock).
 *
 * Board Shop (Mon–Fri), one stage Paint allowing Painting; Cees works 8 h (480 min) Mon–Fri,
 * 100 % on Paint. FILLER's Paint card, Cees's, takes 1,920 min Mon 12-07 … Thu 12-10: Paint is
 * full those four days, Fri 12-11 is free.
 *
 *   RUSH  480 min, due Thu 12-10. Finite from Mon: only Fri 12-11 has room → ends after its due
 *         date, lacking 480 min by Thu → Cees 240 on Wed 12-09 and 240 on Thu 12-10.
 *         Infinite from Mon: Mon 12-07 alone, on time → nothing to take.
 *   LOOSE 480 min, no due date → never late, nothing to take.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { create, fullTime, officeWeek } from '../helpers/base-data.js';
import { fixTheClock } from '../helpers/test-clock.js';

// The offer is counted from today: it runs at a fixed day (docs/architecture.md "Tests").
fixTheClock();

let api: TestApi;
const ids: Record<string, string> = {};

async function dryRun(collection: string, body: Record<string, unknown>): Promise<any> {
  const res = await api.http('POST', `/v1/collection/${ids[collection]}/board/${ids.board}`, { ...body, dry_run: true });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

beforeAll(async () => {
  api = await startTestApi();
  ids.painting = (await create(api, '/v1/activity', { description: 'Painting', resource_type: 'employee' })).id;
  const board = await create(api, '/v1/board?with=stages', {
    name: 'Shop',
    workdays: officeWeek,
    stages: [{ name: 'Paint', activities: [{ id: ids.painting, priority: 0 }] }],
  });
  await create(api, `/v1/board/${board.id}/status`, { name: 'Ready', priority: 0, entry: true, exit: false });
  ids.board = board.id;
  ids.paint = board.stages[0].id;
  ids.cees = (
    await create(api, '/v1/resource', {
      name: 'Cees',
      workdays: fullTime,
      boards: [{ id: board.id, active: true, stages: [{ id: ids.paint, percentage: 100, active: true }] }],
    })
  ).id;
  const filler = await create(api, '/v1/collection', { name: 'FILLER', board_id: board.id });
  await create(api, `/v1/collection/${filler.id}/card`, {
    stage_id: ids.paint,
    start_date: '2026-12-07',
    end_date: '2026-12-10',
    activities: [{ id: ids.painting, time: 1920 }],
    resources: [{ id: ids.cees }],
  });
  const rows = [{ id: ids.painting, time: 480 }];
  ids.rush = (await create(api, '/v1/collection', { name: 'RUSH', board_id: board.id, due_date: '2026-12-10', activities: rows })).id;
  ids.loose = (await create(api, '/v1/collection', { name: 'LOOSE', board_id: board.id, activities: rows })).id;
});

afterAll(async () => {
  await api.close();
});

describe('what would it take, in the dry run', () => {
  it('offers the overtime that would make a finite plan that ends late fit, and writes nothing', async () => {
    const plan = await dryRun('rush', { start: '2026-12-07', capacity: 'finite' });
    expect([plan.start, plan.end]).toEqual(['2026-12-11', '2026-12-11']);
    expect(plan.what_it_takes).toEqual({
      minutes: 480,
      overtime: [
        { resource_id: ids.cees, name: 'Cees', date: '2026-12-09', minutes: 240 },
        { resource_id: ids.cees, name: 'Cees', date: '2026-12-10', minutes: 240 },
      ],
    });
    // A dry run: the collection stays in the backlog and nobody's schedule changed.
    expect((await api.http('GET', `/v1/collection/${ids.rush}`)).body.status).toBe('not_planned');
    expect((await api.http('GET', `/v1/resource/${ids.cees}/schedule_deviation`)).body.data).toEqual([]);
  });

  it('offers nothing for a plan on time or a collection without a due date', async () => {
    const onTime = await dryRun('rush', { start: '2026-12-07' });
    expect([onTime.end, onTime.what_it_takes]).toEqual(['2026-12-07', null]);
    const loose = await dryRun('loose', { start: '2026-12-07', capacity: 'finite' });
    expect([loose.end, loose.what_it_takes]).toEqual(['2026-12-11', null]);
  });

  it('once the overtime offered is added, the same finite plan ends on its due date and offers nothing', async () => {
    const { what_it_takes: takes } = await dryRun('rush', { start: '2026-12-07', capacity: 'finite' });
    const added = await api.http('POST', '/v1/command/add_overtime', {
      overtime: takes.overtime.map(({ name: _name, ...day }: any) => day),
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const plan = await dryRun('rush', { start: '2026-12-07', capacity: 'finite' });
    expect([plan.start, plan.end, plan.what_it_takes]).toEqual(['2026-12-09', '2026-12-10', null]);
  });
});
