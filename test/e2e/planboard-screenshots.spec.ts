/**
 * Screenshots of the planboard for the README (docs/screenshots/*.png): the board with cards,
 * the backlog with a collection being made, the capacity strip at day zoom, the keyboard
 * shortcut list, the board by resource, the plan dialog planning finite with its promise date,
 * the print preview and the dependency arrows; and, on the same workshop, a resource's
 * absences and schedule with the company holidays, and on an empty data folder the first-start
 * checklist. A board of a furniture workshop is set up through the bridge, as an integration
 * would; the pictures are taken through the screens.
 *
 * Not part of a normal test run (it rewrites files in docs/; playwright.config.ts leaves it
 * out): `npm run screenshots` runs it.
 */
import { expect, test, type Page } from './fixtures.js';
import { startApp, type RunningApp } from './app.js';
import { addDays, isoDate, testNow } from './dates.js';
import { bridgeApi, openScreen } from './planner-page.js';
import { screenshotFile } from './readme-screenshots.js';

let app: RunningApp | undefined;

test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

function monday(weeks = 0): string {
  const date = new Date(testNow);
  date.setDate(date.getDate() - ((date.getDay() + 6) % 7) + 7 * weeks);
  return isoDate(date);
}

/** A workshop: four stages, three people, collections planned over four weeks and a backlog. */
async function seedWorkshop(page: Page) {
  const steps = ['Sawing', 'Joinery', 'Sanding', 'Finishing'];
  const activities: string[] = [];
  for (const step of steps)
    activities.push((await bridgeApi(page, 'POST', '/v1/activity', { description: step, resource_type: 'employee' })).id);
  const board = await bridgeApi(
    page,
    'POST',
    '/v1/board',
    {
      name: 'Furniture workshop',
      color: 'teal',
      dependency_behavior: 'push',
      stages: steps.map((name, i) => ({
        name,
        priority: i,
        activities: [{ id: activities[i], priority: 0 }],
        ...(name === 'Finishing' ? { delay_day: 1 } : {}),
      })),
      statuses: [
        { name: 'To do', color: 'grey', priority: 0, entry: true },
        { name: 'In progress', color: 'blue', priority: 1 },
        { name: 'Waiting', color: 'orange', priority: 2 },
        { name: 'Done', color: 'green', priority: 3, exit: true },
      ],
      labels: [
        { name: 'Rush', color: 'red', priority: 0 },
        { name: 'Export', color: 'indigo', priority: 1 },
        { name: 'Oak', color: 'brown', priority: 2 },
      ],
    },
    { with: 'stages,statuses,labels' },
  );
  const people = [];
  for (const [name, share] of [
    ['Anna de Vries', 100],
    ['Ben Okafor', 100],
    ['Chen Li', 50],
  ] as const) {
    people.push(
      await bridgeApi(page, 'POST', '/v1/resource', {
        name,
        type: 'employee',
        boards: [
          {
            id: board.id,
            active: true,
            stages: board.stages.map((stage: { id: string }) => ({ id: stage.id, percentage: share, active: true })),
          },
        ],
      }),
    );
  }
  const products = [
    'Oak dining table',
    'Walnut sideboard',
    'Bar stools (6)',
    'Bookcase',
    'Desk with drawers',
    'Coffee table',
    'Wardrobe',
    'Bench',
    'Kitchen island',
    'Bed frame',
    'Shelving unit',
    'Cabinet doors',
    'Dresser',
    'Nightstands (2)',
    'Hall stand',
  ];
  // Started last Thursday: the first screen (from a week before today) shows the plan filling up.
  const start = addDays(monday(0), -4);
  for (const [i, product] of products.entries()) {
    const collection = await bridgeApi(page, 'POST', '/v1/collection', {
      name: `${1040 + i} ${product}`,
      board_id: board.id,
      due_date: addDays(start, 12 + i * 2 - (i === 4 ? 8 : 0)),
      activities: activities.map((id, k) => ({ id, time: 240 + ((i + k) % 4) * 240 })),
    });
    const planned = await bridgeApi(page, 'POST', `/v1/collection/${collection.id}/board/${board.id}`, {
      start: addDays(start, Math.floor(i * 1.3)),
    });
    // The sales order behind it: the collection keeps its name and cards, and setup is complete.
    await bridgeApi(page, 'POST', '/v1/order', {
      code: `SO-${1040 + i}`,
      description: product,
      type: 'Sales',
      collection_id: collection.id,
    });
    for (const [k, card] of planned.cards.entries()) {
      const status = i < 3 ? board.statuses[k === 0 ? 3 : k === 1 ? 1 : 0] : i === 5 && k === 0 ? board.statuses[2] : board.statuses[0];
      const changes: Record<string, unknown> = { status_id: status.id, resources: [{ id: people[(i + k) % 3].id }] };
      if (i % 4 === 1) changes.labels = [{ id: board.labels[0].id }];
      else if (i % 3 === 0) changes.labels = [{ id: board.labels[2].id }, { id: board.labels[1].id }];
      await bridgeApi(page, 'PUT', `/v1/collection/${collection.id}/card/${card.id}`, changes);
      if (i === 1 && k === 1) await bridgeApi(page, 'POST', '/v1/time_tracking/start', { card_id: card.id });
    }
  }
  for (const [i, name] of [
    'Garden chairs (4)',
    'Reception desk',
    'Display cabinet',
    'Oak doors (3)',
    'Loft ladder',
    'Picture frames',
    'Window seat',
    'Toy chest',
  ].entries()) {
    await bridgeApi(page, 'POST', '/v1/collection', {
      name: `${1060 + i} ${name}`,
      board_id: board.id,
      due_date: addDays(start, 20 + i * 3),
      activities: activities.slice(0, 2 + (i % 3)).map((id, k) => ({ id, time: 120 + k * 180 })),
    });
  }
  return { board, people };
}

/** The app on the workshop, at the planboard with its cards drawn. */
async function openWorkshop(page: Page) {
  app = await startApp();
  await page.setViewportSize({ width: 1440, height: 860 });
  await page.goto(app.url);
  const workshop = await seedWorkshop(page);
  await page.reload();
  await expect(page.getByRole('listbox', { name: 'Cards' }).getByRole('option').first()).toBeVisible();
  await page.waitForTimeout(800);
  return workshop;
}

test('screenshots of the planboard, the backlog and the capacity strip', async ({ page }) => {
  test.setTimeout(120_000);
  await openWorkshop(page);
  const cards = page.getByRole('listbox', { name: 'Cards' });

  // The board: week zoom, a card selected.
  await cards.getByRole('option', { name: /^1050 Shelving unit.*Joinery/ }).click();
  await page.mouse.move(5, 5);
  await page.waitForTimeout(300);
  await page.screenshot({ path: screenshotFile('planboard.png') });

  // The backlog with a new collection being made.
  await cards.focus();
  await page.keyboard.press('Escape');
  const backlog = page.getByRole('complementary', { name: 'Backlog' });
  await backlog.getByRole('button', { name: 'New collection' }).click();
  await backlog.getByLabel('Collection name').fill('1070 Rocking chair');
  await backlog.getByRole('checkbox', { name: 'Sawing' }).check();
  await backlog.getByRole('checkbox', { name: 'Joinery' }).check();
  await page.waitForTimeout(300);
  const box = (await backlog.boundingBox())!;
  await page.screenshot({
    path: screenshotFile('backlog.png'),
    clip: { x: box.x - 8, y: box.y - 8, width: box.width + 16, height: box.height + 16 },
  });
  await backlog.getByRole('button', { name: 'Cancel' }).click();

  // Capacity at day zoom: hours per stage and day, over-capacity in red.
  await page.getByRole('group', { name: 'Zoom' }).getByRole('button', { name: 'Day' }).click();
  await page.getByRole('button', { name: 'Today' }).click();
  await page.waitForTimeout(800);
  await page.screenshot({ path: screenshotFile('capacity.png') });

  // The shortcut list.
  await page.getByRole('group', { name: 'Zoom' }).getByRole('button', { name: 'Month' }).click();
  await cards.focus();
  await page.keyboard.press('?');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
  await page.screenshot({ path: screenshotFile('shortcuts.png') });
});

test('screenshot of the first-start checklist on an empty data folder', async ({ page }) => {
  app = await startApp();
  await page.setViewportSize({ width: 1440, height: 860 });
  await page.goto(app.url);
  await expect(page.getByRole('region', { name: 'Getting started' })).toBeVisible();
  await page.waitForTimeout(500);
  await page.screenshot({ path: screenshotFile('first-start.png') });
});

test('screenshot of the planboard by resource', async ({ page }) => {
  test.setTimeout(120_000);
  await openWorkshop(page);
  await page.getByRole('group', { name: 'Rows' }).getByRole('button', { name: 'Resources' }).click();
  await expect(page.getByRole('list', { name: 'Resources' }).getByRole('listitem')).toHaveCount(3);
  await expect(page.getByRole('listbox', { name: 'Cards of the resources' }).getByRole('option').first()).toBeVisible();
  await page.waitForTimeout(800);
  await page.screenshot({ path: screenshotFile('resources-view.png') });
});

test('screenshot of the plan dialog planning finite, with its promise date', async ({ page }) => {
  test.setTimeout(120_000);
  await openWorkshop(page);
  const backlog = page.getByRole('complementary', { name: 'Backlog' });
  const item = backlog.getByRole('list', { name: 'Backlog collections' }).getByRole('listitem').filter({ hasText: 'Reception desk' });
  await expect(item).toContainText('can finish by');
  await item.hover();
  await item.getByRole('button', { name: 'Plan…' }).click();
  await backlog.getByRole('button', { name: 'More options…' }).click();
  const dialog = page.getByRole('dialog', { name: /^Plan 1061 Reception desk/ });
  await dialog.getByLabel('Only where there is free capacity (finite)').check();
  await expect(dialog.getByTestId('plan-end')).toContainText('This plan ends on');
  await expect(dialog.getByRole('list', { name: 'Per stage' })).toBeVisible();
  await page.mouse.move(5, 5);
  // The dry run follows the choice once the planner pauses: the finite answer, not the first.
  await page.waitForTimeout(1500);
  await expect(dialog.getByText('Working out the plan…')).toHaveCount(0);
  await page.screenshot({ path: screenshotFile('plan-dialog.png') });
});

test('screenshot of a resource’s absences and schedule, and the company holidays', async ({ page }) => {
  test.setTimeout(120_000);
  const { people } = await openWorkshop(page);
  const anna = people[0];
  for (const absence of [
    { type: 'leave', description: 'Dentist', start_date: addDays(monday(1), 1), end_date: addDays(monday(1), 1), time: 240 },
    { type: 'vacation', description: 'Family visit', start_date: monday(2), end_date: addDays(monday(2), 2), time: null },
  ])
    await bridgeApi(page, 'POST', `/v1/resource/${anna.id}/schedule_deviation`, absence);
  const now = new Date(testNow);
  const year = now.getMonth() === 11 && now.getDate() > 25 ? now.getFullYear() + 1 : now.getFullYear();
  for (const [description, start_date] of [
    ['Works outing', addDays(monday(1), 4)],
    ['Christmas Day', `${year}-12-25`],
    ['Boxing Day', `${year}-12-26`],
    ['New Year’s Day', `${year + 1}-01-01`],
  ] as const)
    await bridgeApi(page, 'POST', '/v1/schedule_deviation/holidays', { description, start_date, end_date: start_date });
  await openScreen(page, 'Resources');
  await page.getByRole('button', { name: 'Edit Anna de Vries' }).click();
  await expect(page.getByRole('list', { name: 'Absences of Anna de Vries' }).getByRole('listitem')).toHaveCount(6);
  await expect(page.locator('.resource-schedule__day--absent').first()).toBeVisible();
  await expect(page.getByRole('list', { name: 'Company holidays' }).getByRole('listitem')).toHaveCount(4);
  // The screen scrolls inside the app's frame, not the page: the window is made as tall as the screen.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const height = await page.getByRole('heading', { name: 'Resources', level: 1 }).evaluate((heading) => {
    let frame = heading.parentElement;
    while (frame && frame.scrollHeight <= frame.clientHeight) frame = frame.parentElement;
    return frame ? Math.ceil(frame.getBoundingClientRect().top + frame.scrollHeight) : document.documentElement.scrollHeight;
  });
  await page.setViewportSize({ width: 1440, height: Math.max(860, height) });
  await page.waitForTimeout(500);
  await page.screenshot({ path: screenshotFile('absences.png') });
});

test('screenshot of the print preview of the plan', async ({ page }) => {
  test.setTimeout(120_000);
  await openWorkshop(page);
  await page.getByRole('button', { name: 'Print…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Print the plan' });
  await expect(dialog.getByRole('region', { name: 'The printed plan' }).locator('.print-plan__card').first()).toBeVisible();
  await page.waitForTimeout(800);
  await page.screenshot({ path: screenshotFile('print-preview.png') });
});

test('screenshot of the planboard with dependency arrows', async ({ page }) => {
  test.setTimeout(120_000);
  await openWorkshop(page);
  await page.getByRole('checkbox', { name: 'Arrows' }).check();
  await expect(page.locator('svg.pb-arrows path').first()).toBeAttached();
  await page.mouse.move(5, 5);
  await page.waitForTimeout(800);
  await page.screenshot({ path: screenshotFile('arrows.png') });
});
