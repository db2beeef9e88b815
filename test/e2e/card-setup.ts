/**
 * The board the card panel's specs start from, made through the page's bridge as another client
 * of the same local instance would: three statuses, a label, a card field, a checklist
 * template, and two collections planned from a Monday.
 */
import type { Page } from '@playwright/test';
import { bridgeApi } from './planner-page.js';

export interface Seeded {
  board: any;
  card: any;
  other: any;
}

/** A board with three statuses, a label, a checklist template and a card field; two planned collections. */
export async function seedFramesBoard(page: Page, monday: string): Promise<Seeded> {
  const board = await bridgeApi(
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
  await bridgeApi(page, 'POST', `/v1/board/${board.id}/checklist`, {
    name: 'Quality check',
    items: [{ description: 'Welds ground' }, { description: 'Frame square' }],
  });
  const planned = [];
  for (const name of ['Frame 1001', 'Frame 1002']) {
    const collection = await bridgeApi(page, 'POST', '/v1/collection', { name, board_id: board.id });
    planned.push(await bridgeApi(page, 'POST', `/v1/collection/${collection.id}/board/${board.id}`, { start: monday }, { with: 'cards' }));
  }
  return { board, card: planned[0].cards[0], other: planned[1].cards[0] };
}
