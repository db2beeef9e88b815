/**
 * The board the card panel's specs start from, made through the page's bridge as another client
 * of the same local instance would: three statuses, a label, a card field, a checklist
 * template, and two collections planned from a Monday.
 */
import type { Page } from '@playwright/test';

/** A call to the Planning API through the page's bridge; answers the response body. */
export async function api(page: Page, method: string, path: string, body?: unknown, query?: Record<string, string>): Promise<any> {
  return page.evaluate(
    async ({ method, path, body, query }) => {
      const response = await fetch('/bridge/request', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-planner-bridge': '1' },
        body: JSON.stringify({ method, path, body, query }),
      });
      return (await response.json()).body;
    },
    { method, path, body, query },
  );
}

/** The next Monday after today (local time): a workday inside the first screen of the board. */
export function nextMonday(): string {
  const date = new Date();
  date.setDate(date.getDate() + (((8 - date.getDay()) % 7) || 7));
  return isoDate(date);
}

function isoDate(date: Date): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T12:00:00`);
  d.setDate(d.getDate() + days);
  return isoDate(d);
}

export interface Seeded {
  board: any;
  card: any;
  other: any;
}

/** A board with three statuses, a label, a checklist template and a card field; two planned collections. */
export async function seedFramesBoard(page: Page, monday: string): Promise<Seeded> {
  const board = await api(
    page,
    'POST',
    '/v1/board',
    {
      name: 'Frames',
      stages: [{ name: 'Welding', priority: 0 }],
      statuses: [
        { name: 'To do', entry: true, priority: 0, color: 'grey' },
        { name: 'Doing', priority: 1, color: 'blue' },
        { name: 'Done', exit: true, priority: 2, color: 'green' },
      ],
      labels: [{ name: 'Rush', color: 'red' }],
      custom_fields: [{ name: 'Weight', type: 'number', scope: 'card' }],
    },
    { with: 'stages,statuses,labels' },
  );
  await api(page, 'POST', `/v1/board/${board.id}/checklist`, { name: 'Quality check', items: [{ description: 'Welds ground' }, { description: 'Frame square' }] });
  const planned = [];
  for (const name of ['Frame 1001', 'Frame 1002']) {
    const collection = await api(page, 'POST', '/v1/collection', { name, board_id: board.id });
    planned.push(await api(page, 'POST', `/v1/collection/${collection.id}/board/${board.id}`, { start: monday }, { with: 'cards' }));
  }
  return { board, card: planned[0].cards[0], other: planned[1].cards[0] };
}
