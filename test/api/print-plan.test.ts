/**
 * The printed plan (docs/API.md "Printing the plan") over real HTTP: the PDF's text, read
 * back with `pdftotext -layout`, has each stage as a row with its cards' display names in it,
 * what each is for (the order's description and customer) and for how long and by whom, the
 * days as columns with company holidays named, and page numbers; a bad range or stage is one
 * 422 that writes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { create, expectFieldErrors } from '../helpers/base-data.js';
import { pdfText } from '../helpers/time-report.js';
import { fixTheClock } from '../helpers/test-clock.js';

// What these tests expect depends on the day: they run at a fixed one (docs/architecture.md "Tests").
fixTheClock();

let api: TestApi;
let board: any;
let other: any;

beforeAll(async () => {
  api = await startTestApi();
  board = await create(api, '/v1/board?with=stages', { name: 'Workshop', stages: [{ name: 'Sawing' }, { name: 'Painting' }] });
  other = await create(api, '/v1/board?with=stages', { name: 'Elsewhere', stages: [{ name: 'Packing' }] });
  await create(api, `/v1/board/${board.id}/status`, { name: 'Ready', priority: 0, entry: true, exit: false });
  const [sawing, painting] = board.stages.map((s: any) => s.id);
  const order = await create(api, '/v1/collection', { name: 'SO-1001', board_id: board.id });
  const second = await create(api, '/v1/collection', { name: 'SO-2002', board_id: board.id });
  const card = (collection: any, stage_id: string, start_date: string, end_date: string) =>
    create(api, `/v1/collection/${collection.id}/card`, { stage_id, start_date, end_date });
  await card(order, sawing, '2026-12-07', '2026-12-08');
  await card(order, painting, '2026-12-09', '2026-12-09');
  await card(second, sawing, '2026-12-10', '2026-12-11');
  // Outside the week: not printed.
  await card(second, painting, '2026-12-21', '2026-12-22');
});

afterAll(async () => {
  await api.close();
});

async function print(boardId: string, query: string): Promise<Response> {
  return fetch(`${api.baseUrl}/v1/board/${boardId}/print?${query}`, { headers: api.headers });
}

/** The line of the text that names the stage, and the lines after it up to the next stage. */
function stageSection(text: string, stage: string, stages: string[]): string {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.trimStart().startsWith(stage));
  expect(start, `${stage} in\n${text}`).toBeGreaterThanOrEqual(0);
  let end = lines.findIndex((line, i) => i > start && stages.some((s) => s !== stage && line.trimStart().startsWith(s)));
  if (end === -1) end = lines.length;
  return lines.slice(start, end).join('\n');
}

describe('GET /v1/board/{id}/print', () => {
  it('answers a PDF with every card of the week in its stage row, the days as columns and page numbers', async () => {
    const res = await print(board.id, 'start=2026-12-07&end=2026-12-13');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toContain('plan-2026-12-07-2026-12-13.pdf');
    const text = await pdfText(Buffer.from(await res.arrayBuffer()));
    expect(text).toMatch(/Workshop — whole board\s+Mon 7 Dec 2026 – Sun 13 Dec 2026/);
    expect(text).toMatch(/Stage\s+Mon 7 Dec\s+Tue 8 Dec\s+Wed 9 Dec\s+Thu 10 Dec\s+Fri 11 Dec\s+Sat 12 Dec\s+Sun 13 Dec/);
    const stages = ['Sawing', 'Painting'];
    const sawing = stageSection(text, 'Sawing', stages);
    expect(sawing).toMatch(/SO-1001 · Sawing/);
    expect(sawing).toMatch(/SO-2002 · Sawing/);
    expect(stageSection(text, 'Painting', stages)).toMatch(/SO-1001 · Painting/);
    expect(text).not.toContain('SO-2002 · Painting');
    expect(text).toContain('Page 1 of 1');
  });

  it('prints one stage when stage_id names it', async () => {
    const res = await print(board.id, `start=2026-12-07&end=2026-12-13&stage_id=${board.stages[1].id}`);
    expect(res.status).toBe(200);
    const text = await pdfText(Buffer.from(await res.arrayBuffer()));
    expect(text).toContain('Workshop — Painting');
    expect(text).toContain('SO-1001 · Painting');
    expect(text).not.toContain('Sawing');
  });

  it('cuts a period of more than a week into pages of a week of days, numbered', async () => {
    const res = await print(board.id, 'start=2026-12-07&end=2026-12-27');
    const text = await pdfText(Buffer.from(await res.arrayBuffer()));
    const pages = text.split('\f').filter((p) => p.trim());
    expect(pages).toHaveLength(3);
    expect(pages[2]).toContain('Page 3 of 3');
    expect(pages[2]).toMatch(/Mon 21 Dec/);
    expect(stageSection(pages[2]!, 'Painting', ['Sawing', 'Painting'])).toMatch(/SO-2002 · Painting/);
  });

  it('answers the same pages as positions with format=json, for the preview', async () => {
    const res = await api.http('GET', `/v1/board/${board.id}/print?start=2026-12-07&end=2026-12-20&format=json`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ board: 'Workshop', scope: 'whole board', start: '2026-12-07', end: '2026-12-20' });
    expect(res.body.pages).toHaveLength(2);
    const [first] = res.body.pages;
    expect(first).toMatchObject({ number: 1, of: 2 });
    expect(first.days[0]).toEqual({ date: '2026-12-07', label: 'Mon 7 Dec', workday: true, holiday: null });
    expect(first.stages.map((s: any) => s.name)).toEqual(['Sawing', 'Painting']);
    expect(first.stages[0].cards.map((c: any) => c.name).sort()).toEqual(['SO-1001 · Sawing', 'SO-2002 · Sawing']);
    for (const card of first.stages[0].cards) expect(card.x + card.width).toBeLessThanOrEqual(res.body.page.width);
  });

  it('says on each card what it is for, for how long and who does it, and names company holidays over their day', async () => {
    const shop = await create(api, '/v1/board?with=stages', {
      name: 'Joinery',
      // Fridays off: the board's own non-workdays, not just the weekend.
      workdays: { '1': true, '2': true, '3': true, '4': true, '5': false, '6': false, '7': false },
      stages: [{ name: 'Assembly' }],
      statuses: [{ name: 'Ready', priority: 0, entry: true, exit: false }],
    });
    const assembly = shop.stages[0].id;
    const glueing = await create(api, '/v1/activity', { description: 'Glueing' });
    const anna = await create(api, '/v1/resource', { name: 'Anna' });
    const bram = await create(api, '/v1/resource', { name: 'Bram' });
    const customer = await create(api, '/v1/relation', { name: 'Jansen Interiors' });
    const order = await create(api, '/v1/order', {
      code: 'SO-3003',
      description: 'Oak table',
      quantity: 3,
      relation_id: customer.id,
      board_id: shop.id,
    });
    await create(api, `/v1/collection/${order.collection_id}/card`, {
      stage_id: assembly,
      start_date: '2026-12-07',
      end_date: '2026-12-08',
      activities: [{ id: glueing.id, time: 360 }],
      resources: [{ id: anna.id }, { id: bram.id }],
    });
    await create(api, '/v1/schedule_deviation/holidays', { description: 'Founders Day', start_date: '2026-12-10' });

    const res = await print(shop.id, 'start=2026-12-07&end=2026-12-13');
    const text = await pdfText(Buffer.from(await res.arrayBuffer()));
    const card = stageSection(text, 'Assembly', ['Assembly']);
    expect(card).toMatch(/SO-3003 · Assembly/);
    expect(card).toMatch(/3x Oak table · Jansen Interiors/);
    expect(card).toMatch(/6 h · Anna, Bram/);
    expect(text).toContain('Founders Day');

    const preview = await api.http('GET', `/v1/board/${shop.id}/print?start=2026-12-07&end=2026-12-13&format=json`);
    const [first] = preview.body.pages;
    expect(first.stages[0].cards[0]).toMatchObject({
      name: 'SO-3003 · Assembly',
      lines: ['SO-3003 · Assembly', '3x Oak table · Jansen Interiors', '6 h · Anna, Bram'],
      nameLines: 1,
    });
    expect(first.days.map((day: any) => [day.date, day.workday, day.holiday])).toEqual([
      ['2026-12-07', true, null],
      ['2026-12-08', true, null],
      ['2026-12-09', true, null],
      ['2026-12-10', true, 'Founders Day'],
      ['2026-12-11', false, null],
      ['2026-12-12', false, null],
      ['2026-12-13', false, null],
    ]);
  });

  it.each([
    ['start=2026-12-07', ['end']],
    ['start=7-12-2026&end=2026-12-13', ['start']],
    ['start=2026-12-13&end=2026-12-07', ['end']],
    ['start=2026-12-01&end=2027-02-01', ['end']],
    ['start=2026-12-07&end=2026-12-13&format=png', ['format']],
    [`start=2026-12-07&end=2026-12-13&stage_id=${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`, ['stage_id']],
  ])('refuses %s with 422 naming the field', async (query, fields) => {
    const res = await print(board.id, query);
    expectFieldErrors({ status: res.status, body: await res.json() }, fields);
  });

  it('refuses a stage of another board with 422, and an unknown board with 404', async () => {
    const res = await print(board.id, `start=2026-12-07&end=2026-12-13&stage_id=${other.stages[0].id}`);
    expectFieldErrors({ status: res.status, body: await res.json() }, ['stage_id']);
    const missing = await print('00000000-0000-4000-8000-000000000000', 'start=2026-12-07&end=2026-12-13');
    expect(missing.status).toBe(404);
  });

  it('refuses a request without credentials with 401', async () => {
    const res = await fetch(`${api.baseUrl}/v1/board/${board.id}/print?start=2026-12-07&end=2026-12-13`);
    expect(res.status).toBe(401);
  });
});
