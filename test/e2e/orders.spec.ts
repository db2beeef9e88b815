/**
 * The Orders screen as a new planner uses it: an order with rows made in one step, its rows
 * edited like a spreadsheet, its collection, and the order list's filters, sort, keyboard and
 * windowing; the order's collection found in the backlog, planned by dragging, and opened on
 * the planboard; the screen in Dutch. Base data with no screen of its own (relations) and
 * boards are made through the page's bridge, which carries the session cookie as the app
 * itself does.
 */
import { expect, test, type Locator, type Page } from './fixtures.js';
import { startApp, type RunningApp } from './app.js';
import { addDays, nextMonday } from './dates.js';
import { cellCentre, dragTo } from './planboard-grid.js';
import { bridgeApi, bridgeCall, cardOnServer, openScreen, switchToDutch } from './planner-page.js';
import { retakeScreenshot } from './readme-screenshots.js';

let app: RunningApp | undefined;

test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

/** Makes something through the bridge and answers it; anything but a 201 fails the test. */
async function create(page: Page, path: string, body: unknown): Promise<any> {
  const answer = await bridgeCall(page, 'POST', path, body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body;
}

/** Pastes text into an element the way a spreadsheet's clipboard arrives. */
async function paste(target: Locator, text: string): Promise<void> {
  await target.evaluate((element, clipboardText) => {
    // Runs in the page; the test's own TypeScript has no DOM library to name these in.
    const dom = globalThis as any;
    const data = new dom.DataTransfer();
    data.setData('text/plain', clipboardText);
    element.dispatchEvent(new dom.ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}

/** The data rows of a grid (not its header row). */
function bodyRows(grid: Locator): Locator {
  return grid.getByRole('row').filter({ has: grid.page().getByRole('gridcell') });
}

test('a new planner creates an order with three rows, edits them like a spreadsheet and sees its collection', async ({ page }) => {
  app = await startApp();
  await page.goto(app.url);
  await create(page, '/v1/activity', { description: 'Painting', code: 'PNT' });
  await create(page, '/v1/relation', { name: 'Acme' });

  await openScreen(page, 'Orders');
  await expect(page.getByRole('status').filter({ hasText: '0 orders' })).toBeVisible();
  await page.getByRole('button', { name: 'New order' }).click();

  // Header.
  await page.getByLabel('Code', { exact: true }).fill('ORD-1');
  await page.getByLabel('Type', { exact: true }).selectOption('Sales');
  await page.getByLabel('Relation', { exact: true }).selectOption({ label: 'Acme' });
  await page.getByLabel('Promised date', { exact: true }).fill('2025-06-30');

  // Three rows: 2 hours and 30 minutes of painting, and a crate with no work.
  await page.getByLabel('Row 1 description').fill('Frame');
  await page.getByLabel('Row 1 activity').selectOption({ label: 'Painting (PNT)' });
  await page.getByLabel('Row 1 quantity').fill('2');
  await page.getByLabel('Row 1 unit').selectOption('hours');
  await page.getByRole('button', { name: 'Add row' }).click();
  await page.getByLabel('Row 2 description').fill('Seat');
  await page.getByLabel('Row 2 activity').selectOption({ label: 'Painting (PNT)' });
  await page.getByLabel('Row 2 quantity').fill('30');
  await page.getByLabel('Row 2 unit').selectOption('minutes');
  await page.getByRole('button', { name: 'Add row' }).click();
  await page.getByLabel('Row 3 description').fill('Crate');
  await page.getByLabel('Row 3 quantity').fill('1');
  await page.getByRole('button', { name: 'Create order' }).click();

  // The collection it created, with the minutes summed per activity.
  await expect(page.getByRole('heading', { name: 'Order ORD-1 was created' })).toBeVisible();
  await expect(page.getByText('saved with 3 rows')).toBeVisible();
  const collection = page.getByRole('region', { name: 'Collection' });
  await expect(collection.getByText('ORD-1', { exact: true })).toBeVisible();
  await expect(collection.getByText('Not planned', { exact: true })).toBeVisible();
  await expect(collection.getByText('None yet', { exact: true })).toBeVisible();
  await expect(collection.locator('time[datetime="2025-06-30"]')).toBeVisible();
  await expect(collection.getByRole('list', { name: 'Collection activities' })).toHaveText(/Painting\s*150 min \(2 h 30 min\)/);

  await page.getByRole('button', { name: 'Open the order' }).click();
  await expect(page.getByRole('heading', { name: 'Order ORD-1', level: 1 })).toBeVisible();
  const grid = page.getByRole('grid', { name: 'Order rows' });
  await expect(bodyRows(grid)).toHaveCount(3);
  await expect(grid.getByRole('gridcell', { name: /^Row 1 activity(:|$)/ })).toHaveText('Painting (PNT)', { useInnerText: true });
  await retakeScreenshot(page, 'order.png');

  // Inline edit: Enter starts editing, Enter saves and moves down.
  await grid.getByRole('gridcell', { name: /^Row 1 quantity(:|$)/ }).click();
  await page.keyboard.press('Enter');
  await grid.getByRole('textbox', { name: 'Row 1 quantity' }).fill('3');
  await page.keyboard.press('Enter');
  await expect(grid.getByRole('gridcell', { name: /^Row 1 quantity(:|$)/ })).toHaveText('3', { useInnerText: true });
  await expect(grid.getByRole('gridcell', { name: /^Row 2 quantity(:|$)/ })).toBeFocused();
  await expect(collection.getByRole('list', { name: 'Collection activities' })).toHaveText(/Painting\s*210 min \(3 h 30 min\)/);

  // A quantity the API refuses: its 422 message shows on the cell, which stays in editing.
  await page.keyboard.type('abc');
  await page.keyboard.press('Enter');
  const badCell = grid.getByRole('gridcell', { name: /^Row 2 quantity(:|$)/ });
  await expect(badCell).toContainText('Quantity must be a number');
  await expect(grid.getByRole('textbox', { name: 'Row 2 quantity' })).toHaveValue('abc');
  await expect(grid.getByRole('textbox', { name: 'Row 2 quantity' })).toHaveAttribute('aria-invalid', 'true');
  // Esc cancels: the stored value is back and the message is gone.
  await page.keyboard.press('Escape');
  await expect(badCell).toHaveText('30', { useInnerText: true });
  await expect(badCell).toBeFocused();

  // Tab saves and moves right; arrows move without editing.
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowRight');
  await expect(grid.getByRole('gridcell', { name: /^Row 1 unit(:|$)/ })).toBeFocused();
  await page.keyboard.press('Enter');
  await grid.getByRole('combobox', { name: 'Row 1 unit' }).selectOption('minutes');
  await page.keyboard.press('Tab');
  await expect(grid.getByRole('gridcell', { name: /^Row 1 unit(:|$)/ })).toHaveText('minutes', { useInnerText: true });
  await expect(grid.getByRole('gridcell', { name: /^Row 1 delivered(:|$)/ })).toBeFocused();

  // Two rows pasted from a spreadsheet are added in one write, in the grid's column order.
  await paste(grid.getByRole('gridcell', { name: /^Row 1 code(:|$)/ }), 'R4\tBolts\t\tPNT\t4\tminutes\r\nR5\tNuts\t\t\t10\tpcs\r\n');
  await expect(page.getByText('Added 2 pasted rows.')).toBeVisible();
  await expect(bodyRows(grid)).toHaveCount(5);
  await expect(grid.getByRole('gridcell', { name: /^Row 4 activity(:|$)/ })).toHaveText('Painting (PNT)', { useInnerText: true });
  await expect(grid.getByRole('gridcell', { name: /^Row 5 description(:|$)/ })).toHaveText('Nuts', { useInnerText: true });
  await expect(grid.getByRole('gridcell', { name: /^Row 5 unit(:|$)/ })).toHaveText('pcs', { useInnerText: true });

  // A pasted block with a problem adds nothing and says which row is wrong.
  await paste(grid.getByRole('gridcell', { name: /^Row 1 code(:|$)/ }), 'R6\tWashers\t\t\tlots\nR7\tGlue\t\tSanding\t1\n');
  const problems = page.getByRole('alert').filter({ hasText: 'Nothing was pasted' });
  await expect(problems).toContainText('Pasted row 2: no activity has the code or description “Sanding”.');
  await paste(grid.getByRole('gridcell', { name: /^Row 1 code(:|$)/ }), 'R6\tWashers\t\t\tlots\n');
  await expect(problems).toContainText('Pasted row 1, quantity: must be a number');
  await expect(bodyRows(grid)).toHaveCount(5);

  // Duplicate puts the copy right below; delete asks first.
  await grid.getByRole('gridcell', { name: /^Row 1 description(:|$)/ }).click();
  await page.getByRole('button', { name: 'Duplicate row 1' }).click();
  await expect(bodyRows(grid)).toHaveCount(6);
  await expect(grid.getByRole('gridcell', { name: /^Row 2 description(:|$)/ })).toHaveText('Frame', { useInnerText: true });
  await expect(grid.getByRole('gridcell', { name: /^Row 3 description(:|$)/ })).toHaveText('Seat', { useInnerText: true });
  await page.getByRole('button', { name: 'Delete row 2' }).click();
  await page.getByRole('button', { name: 'Confirm delete' }).click();
  await expect(bodyRows(grid)).toHaveCount(5);
  await expect(grid.getByRole('gridcell', { name: /^Row 2 description(:|$)/ })).toHaveText('Seat', { useInnerText: true });

  // Header fields are edited with the API's messages beside them.
  await page.getByLabel('Description', { exact: true }).fill('Garden furniture');
  await page.getByRole('button', { name: 'Save order' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  // A relation deleted elsewhere after it was picked: the API refuses it beside the field.
  const gone = await create(page, '/v1/relation', { name: 'Gone Ltd' });
  await page.getByLabel('Relation', { exact: true }).selectOption({ label: 'Gone Ltd' });
  expect((await bridgeCall(page, 'DELETE', `/v1/relation/${gone.id}`)).status).toBe(204);
  await page.getByRole('button', { name: 'Save order' }).click();
  await expect(page.getByText(`relation_id names no Relation with id ${gone.id}`)).toBeVisible();
  await expect(page.getByLabel('Relation', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await page.getByRole('button', { name: 'Discard changes' }).click();
  await expect(page.getByLabel('Relation', { exact: true })).toHaveValue(/.+/);

  // Everything above is stored: the list shows the order, and its rows come back after a reload.
  await page.getByRole('button', { name: 'Back to orders' }).click();
  const orders = page.getByRole('grid', { name: 'Orders' });
  await expect(bodyRows(orders)).toHaveCount(1);
  await expect(bodyRows(orders).first()).toContainText('Garden furniture');
  await expect(bodyRows(orders).first()).toContainText('Acme');
  await page.reload();
  await openScreen(page, 'Orders');
  await bodyRows(orders).first().dblclick();
  await expect(bodyRows(grid)).toHaveCount(5);
  await expect(grid.getByRole('gridcell', { name: /^Row 1 quantity(:|$)/ })).toHaveText('3', { useInnerText: true });
});

test('the order list filters, sorts on a header click and opens an order from the keyboard', async ({ page }) => {
  app = await startApp();
  await page.goto(app.url);
  const acme = await create(page, '/v1/relation', { name: 'Acme' });
  const beta = await create(page, '/v1/relation', { name: 'Beta' });
  await create(page, '/v1/order', { code: 'A-100', type: 'Sales', description: 'Chairs', relation_id: acme.id, date: '2025-01-10' });
  await create(page, '/v1/order', { code: 'B-200', type: 'Purchase', description: 'Timber', relation_id: beta.id, date: '2025-02-15' });
  await create(page, '/v1/order', {
    code: 'C-300',
    type: 'Sales',
    description: 'Tables',
    relation_id: beta.id,
    date: '2025-03-20',
    status: 'open',
  });

  await openScreen(page, 'Orders');
  const orders = page.getByRole('grid', { name: 'Orders' });
  await expect(page.getByRole('status').filter({ hasText: '3 orders' })).toBeVisible();
  // Newest order date first by default.
  await expect(bodyRows(orders)).toHaveText([/C-300/, /B-200/, /A-100/]);
  await retakeScreenshot(page, 'orders.png');

  const codeHeader = orders.getByRole('columnheader', { name: 'Code' });
  await codeHeader.getByRole('button').click();
  await expect(codeHeader).toHaveAttribute('aria-sort', 'ascending');
  await expect(bodyRows(orders)).toHaveText([/A-100/, /B-200/, /C-300/]);
  await codeHeader.getByRole('button').click();
  await expect(codeHeader).toHaveAttribute('aria-sort', 'descending');
  await expect(bodyRows(orders)).toHaveText([/C-300/, /B-200/, /A-100/]);
  await orders.getByRole('columnheader', { name: 'Description' }).getByRole('button').click();
  await expect(bodyRows(orders)).toHaveText([/Chairs/, /Tables/, /Timber/]);

  await page.getByLabel('Type filter').selectOption('Sales');
  await expect(bodyRows(orders)).toHaveText([/A-100/, /C-300/]);
  await page.getByLabel('Relation filter').selectOption({ label: 'Beta' });
  await expect(bodyRows(orders)).toHaveText([/C-300/]);
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(bodyRows(orders)).toHaveCount(3);

  await page.getByLabel('Search code or description').fill('timb');
  await expect(bodyRows(orders)).toHaveText([/B-200/]);
  await page.getByLabel('Search code or description').fill('c-3');
  await expect(bodyRows(orders)).toHaveText([/C-300/]);
  await page.getByRole('button', { name: 'Clear filters' }).click();

  await page.getByLabel('Status filter').fill('open');
  await expect(bodyRows(orders)).toHaveText([/C-300/]);
  await page.getByRole('button', { name: 'Clear filters' }).click();

  await page.getByLabel('From', { exact: true }).fill('2025-02-01');
  await expect(bodyRows(orders)).toHaveCount(2);
  await page.getByLabel('To', { exact: true }).fill('2025-02-28');
  await expect(bodyRows(orders)).toHaveText([/B-200/]);
  await expect(page.getByRole('status').filter({ hasText: '1 order' })).toBeVisible();
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page.getByRole('status').filter({ hasText: '3 orders' })).toBeVisible();

  // Keyboard: arrows move the selection, Enter opens; back again, the selection is kept.
  await orders.focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(bodyRows(orders).nth(1)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Order C-300', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Back to orders' }).click();
  await expect(orders).toBeFocused();
  await expect(bodyRows(orders).nth(1)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Order A-100', level: 1 })).toBeVisible();
});

test('a long order list renders only the rows in view and fetches pages as it scrolls, and the backlog finds any of their collections', async ({
  page,
}) => {
  test.setTimeout(180_000);
  app = await startApp();
  await page.goto(app.url);
  const total = 1_200;
  // Made in parallel batches through the bridge; each order also creates its collection.
  const made = await page.evaluate(async (count) => {
    let ok = 0;
    for (let start = 0; start < count; start += 50) {
      const batch = [];
      for (let n = start; n < Math.min(count, start + 50); n++) {
        const code = `O-${String(n).padStart(5, '0')}`;
        batch.push(
          fetch('/bridge/request', {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'x-planner-bridge': '1',
              'x-planner-page-key': localStorage.getItem('planner.pageKey') ?? '',
            },
            body: JSON.stringify({ method: 'POST', path: '/v1/order', body: { code, description: `Order number ${n}` } }),
          }).then((response) => response.json() as Promise<{ status: number }>),
        );
      }
      for (const answer of await Promise.all(batch)) if (answer.status === 201) ok++;
    }
    return ok;
  }, total);
  expect(made).toBe(total);

  await openScreen(page, 'Orders');
  const orders = page.getByRole('grid', { name: 'Orders' });
  await expect(page.getByRole('status').filter({ hasText: '1,200 orders' })).toBeVisible();
  await expect(orders).toHaveAttribute('aria-rowcount', String(total + 1));
  await orders.getByRole('columnheader', { name: 'Code' }).getByRole('button').click();
  await expect(bodyRows(orders).first()).toContainText('O-00000');
  // Only a window of rows is in the document, not 1,200.
  expect(await bodyRows(orders).count()).toBeLessThan(80);

  // The end of the list is two pages further: End selects the last order and scrolls to it.
  await orders.focus();
  await page.keyboard.press('End');
  const last = orders.getByRole('row', { name: /O-01199/ });
  await expect(last).toBeVisible();
  await expect(last).toHaveAttribute('aria-selected', 'true');
  await expect(last).toHaveAttribute('aria-rowindex', String(total + 1));
  expect(await bodyRows(orders).count()).toBeLessThan(80);

  // Scrolling to the middle shows rows of the third page.
  await orders.locator('.order-list__viewport').evaluate((viewport) => (viewport.scrollTop = 34 * 1000));
  await expect(orders.getByRole('row', { name: /O-01000/ })).toBeVisible();
  await page.keyboard.press('Home');
  await expect(orders.getByRole('row', { name: /O-00000/ })).toHaveAttribute('aria-selected', 'true');

  // Their 1,200 collections wait in the shared backlog, more than one read (1,000) holds: the
  // search asks the API, so the last one made is found too.
  await bridgeApi(page, 'POST', '/v1/board', { name: 'Workshop', stages: [{ name: 'Build', priority: 0 }] });
  await openScreen(page, 'Planboard');
  const backlog = page.getByRole('complementary', { name: 'Backlog' });
  await expect(backlog).toContainText('Showing the first 1000 of 1200.');
  await backlog.getByLabel('Search backlog').fill('number 1199');
  const found = backlog.getByRole('list', { name: 'Backlog collections' }).getByRole('listitem');
  await expect(found).toHaveCount(1);
  await expect(found).toContainText('O-01199');
  await expect(backlog.getByRole('heading', { name: 'Backlog (1)' })).toBeVisible();
});

test('an order’s collection is found in the backlog, planned by dragging it onto a day, and opened on the planboard with its card selected', async ({
  page,
}) => {
  app = await startApp();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(app.url);
  const painting = await create(page, '/v1/activity', { description: 'Painting', code: 'PNT' });
  const stages = [{ name: 'Painting', priority: 0, activities: [{ id: painting.id, priority: 0 }] }];
  const statuses = [{ name: 'To do', priority: 0, entry: true }];
  // Sorted first, but with a backlog of its own: collections on no board are not listed there.
  await create(page, '/v1/board', { name: 'Assembly', own_backlog: true, stages, statuses });
  await create(page, '/v1/board', { name: 'Paint shop', stages, statuses });

  // An order with a row of painting, made on the Orders screen.
  await openScreen(page, 'Orders');
  await page.getByRole('button', { name: 'New order' }).click();
  await page.getByLabel('Code', { exact: true }).fill('ORD-7');
  await page.getByLabel('Row 1 description').fill('Frame');
  await page.getByLabel('Row 1 activity').selectOption({ label: 'Painting (PNT)' });
  await page.getByLabel('Row 1 quantity').fill('3');
  await page.getByLabel('Row 1 unit').selectOption('hours');
  await page.getByRole('button', { name: 'Create order' }).click();
  await expect(page.getByRole('heading', { name: 'Order ORD-7 was created' })).toBeVisible();

  // Its collection is on no board yet: the link opens the backlog of the board that lists it.
  await page.getByRole('region', { name: 'Collection' }).getByRole('button', { name: 'Show in the backlog of Paint shop' }).click();
  await expect(page.getByRole('heading', { name: 'Planboard', level: 1 })).toBeVisible();
  const backlog = page.getByRole('complementary', { name: 'Backlog' });
  await expect(backlog.getByLabel('Search backlog')).toHaveValue('ORD-7');
  const item = backlog.getByRole('list', { name: 'Backlog collections' }).getByRole('listitem').filter({ hasText: 'ORD-7' });
  await expect(item).toBeVisible();
  await expect(item).toHaveAttribute('aria-current', 'true');
  await expect(item).toContainText('Painting');

  // Planned by dragging it onto Monday in the Painting row.
  const monday = nextMonday();
  const itemBox = (await item.boundingBox())!;
  await dragTo(page, { x: itemBox.x + 40, y: itemBox.y + 20 }, await cellCentre(page, monday, 'Painting'));
  const card = page.getByRole('listbox', { name: 'Cards' }).getByRole('option', { name: /^ORD-7/ });
  await expect(card).toBeVisible();
  await expect(item).toHaveCount(0);
  await expect(card).toHaveAttribute('aria-selected', 'false');

  // Moved ten weeks on by another client: far outside the days the planboard opens on.
  const planned = await cardOnServer(page, 'ORD-7');
  expect(planned).toMatchObject({ start_date: monday });
  const later = addDays(monday, 70);
  const moved = await bridgeCall(page, 'PUT', `/v1/collection/${planned.collection_id}/card/${planned.id}`, {
    start_date: later,
    end_date: later,
  });
  expect(moved.status, JSON.stringify(moved.body)).toBe(200);

  // The Orders menu item opens the order list; the order, opened from it, has its collection planned on Paint shop.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Orders' }).click();
  await page.getByRole('grid', { name: 'Orders' }).getByRole('row').filter({ hasText: 'ORD-7' }).dblclick();
  await expect(page.getByRole('heading', { name: 'Order ORD-7', level: 1 })).toBeVisible();
  const collection = page.getByRole('region', { name: 'Collection' });
  await expect(collection.getByText('Planned', { exact: true })).toBeVisible();
  await expect(collection.getByText('Paint shop', { exact: true })).toBeVisible();
  await collection.getByRole('button', { name: 'Open on the planboard' }).click();

  // The planboard jumps to the card's day and selects it; the keyboard goes on from there.
  await expect(card).toBeInViewport();
  await expect(card).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('listbox', { name: 'Cards' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('complementary', { name: 'Card details' })).toContainText('ORD-7');
});

test('the Orders screen speaks Dutch once the language is switched in Settings', async ({ page }) => {
  app = await startApp();
  await page.goto(app.url);
  await create(page, '/v1/order', { code: 'NL-1', type: 'Sales', description: 'Tafels', date: '2025-04-01' });
  await switchToDutch(page);

  await page.getByRole('navigation', { name: 'Hoofdmenu' }).getByRole('button', { name: 'Orders' }).click();
  await expect(page.getByRole('heading', { name: 'Orders', level: 1 })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: '1 order' })).toBeVisible();
  const orders = page.getByRole('grid', { name: 'Orders' });
  // The sorted column also shows its arrow, hence "contains".
  await expect(orders.getByRole('columnheader')).toContainText([
    'Code',
    'Omschrijving',
    'Type',
    'Status',
    'Relatie',
    'Orderdatum',
    'Beloofde leverdatum',
    'Aantal',
  ]);
  await expect(bodyRows(orders).first()).toContainText('Verkoop');
  await expect(page.getByLabel('Zoeken op code of omschrijving')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Filters wissen' })).toBeDisabled();

  await page.getByRole('button', { name: 'Nieuwe order' }).click();
  await expect(page.getByRole('heading', { name: 'Nieuwe order', level: 1 })).toBeVisible();
  await expect(page.getByLabel('Beloofde leverdatum', { exact: true })).toBeVisible();
  await expect(page.getByLabel('Regel 1 omschrijving')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Order aanmaken' })).toBeVisible();
});
