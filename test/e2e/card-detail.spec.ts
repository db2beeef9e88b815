/**
 * The card detail panel as a planner uses it: a card opened from the planboard (click, Enter),
 * its fields edited (with the API's 422 beside the input), its status stepped, a label ticked,
 * a checklist made from the board's template and an item ticked, a comment and a reply, the
 * timer started and stopped, a link and an uploaded file (downloaded back), a relation to
 * another card, the card split, and the panel closed with Esc, focus back on the grid; with the
 * panel open, a click on another card shows that card.
 * Everything through the panel; the bridge seeds the board and reads the results.
 */
import { expect, test, type Locator } from './fixtures.js';
import { startApp, type RunningApp } from './app.js';
import { seedFramesBoard } from './card-setup.js';
import { addDays, nextMonday } from './dates.js';
import { bridgeApi } from './planner-page.js';
import { retakeScreenshot } from './readme-screenshots.js';

let app: RunningApp | undefined;

test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

/**
 * Ticks a box and answers whether it shows the tick in the click's own task, before anything
 * the click queued has run. A box that React puts back until React Query's (deferred) news of
 * the write arrives reads unticked there, which is what made `check()` fail now and then.
 */
async function tickShownAtOnce(box: Locator): Promise<boolean> {
  await expect(box).toBeEnabled();
  return box.evaluate((input: HTMLInputElement) => {
    input.click();
    return input.checked;
  });
}

test('a planner works through a card in its detail panel', async ({ page }) => {
  app = await startApp();
  await page.setViewportSize({ width: 1600, height: 1000 });
  await page.goto(app.url);
  const monday = nextMonday();
  const { board, card, other } = await seedFramesBoard(page, monday);
  const cardPath = `/v1/collection/${card.collection_id}/card/${card.id}`;
  const serverCard = async () =>
    (await bridgeApi(page, 'GET', '/v1/card', undefined, { filter: `id:eq:'${card.id}'`, with: 'labels,status' })).data[0];
  await page.reload();

  // Opened from the grid: select the card, Enter.
  const cards = page.getByRole('listbox', { name: 'Cards' });
  const option = cards.getByRole('option', { name: /^Frame 1001/ });
  await option.click();
  await page.keyboard.press('Enter');
  const panel = page.getByRole('complementary', { name: 'Card details' });
  await expect(panel.getByRole('heading', { name: 'Frame 1001', level: 2 })).toBeFocused();
  await expect(panel).toContainText('Collection Frame 1001');

  // Dates: a 422 shows beside its input; a valid end date saves (and makes the card splittable).
  await panel.getByLabel('End date').fill(addDays(monday, -3));
  await panel.getByRole('button', { name: 'Save card' }).click();
  await expect(panel.getByLabel('End date')).toHaveAccessibleDescription('End date cannot be before the start date');
  await panel.getByLabel('End date').fill(addDays(monday, 2));
  await panel.getByLabel('Start time').fill('07:30');
  await panel.getByRole('button', { name: 'Save card' }).click();
  await expect(panel.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  await expect.poll(async () => (await serverCard()).end_date).toBe(addDays(monday, 2));
  expect((await serverCard()).start_time).toBe('07:30');

  // Status: To do → Doing.
  await expect(panel.getByRole('status', { name: 'Current status' })).toHaveText('To do');
  await expect(panel.getByRole('button', { name: 'Previous status' })).toBeDisabled();
  await panel.getByRole('button', { name: 'Next status' }).click();
  await expect(panel.getByRole('status', { name: 'Current status' })).toHaveText('Doing');
  await expect.poll(async () => (await serverCard()).status.name).toBe('Doing');
  await retakeScreenshot(page, 'card-detail.png');

  // A label, and a custom field by its type. The tick shows at once and stays.
  const rush = panel.getByRole('group', { name: 'Labels' }).getByLabel('Rush');
  expect(await tickShownAtOnce(rush)).toBe(true);
  await expect(rush).toBeChecked();
  await expect.poll(async () => (await serverCard()).labels.map((label: any) => label.name)).toEqual(['Rush']);
  await panel.getByLabel('Weight').fill('42.5');
  await panel.getByRole('button', { name: 'Save custom fields' }).click();
  await expect
    .poll(async () => (await serverCard()).custom_fields)
    .toEqual([expect.objectContaining({ name: 'Weight', type: 'number', value: 42.5 })]);

  // A checklist from the board's template; an item ticked.
  await panel.getByLabel('From template').selectOption({ label: 'Quality check' });
  await panel.getByRole('button', { name: 'Add checklist', exact: true }).click();
  const checklist = panel.getByRole('region', { name: 'Checklist Quality check' });
  expect(await tickShownAtOnce(checklist.getByRole('checkbox', { name: 'Welds ground' }))).toBe(true);
  await expect(checklist).toContainText('1/2');
  await checklist.getByLabel('New checklist item').fill('Paint touched up');
  await checklist.getByRole('button', { name: 'Add checklist item' }).click();
  await expect(checklist.getByRole('checkbox', { name: 'Paint touched up' })).not.toBeChecked();
  await expect
    .poll(async () => {
      const lists = await bridgeApi(page, 'GET', `${cardPath}/checklist`, undefined, { with: 'items' });
      return lists.data[0].items.map((item: any) => [item.description, item.checked]);
    })
    .toEqual([
      ['Welds ground', true],
      ['Frame square', false],
      ['Paint touched up', false],
    ]);

  // A comment and a reply to it, the reply indented under it.
  await panel.getByLabel('New comment').fill('Welds look good.');
  await panel.getByRole('button', { name: 'Add comment' }).click();
  const comments = panel.getByRole('list', { name: 'Comments' });
  await expect(comments.getByRole('listitem')).toHaveCount(1);
  await comments.getByRole('button', { name: 'Reply to Welds look good.' }).click();
  await panel.getByLabel('Your reply').fill('Thanks, grinding next.');
  await panel.getByRole('button', { name: 'Add reply' }).click();
  await expect(comments.getByRole('listitem')).toHaveCount(2);
  await expect(comments.getByRole('listitem').nth(1)).toHaveAttribute('data-depth', '1');
  await expect(comments.getByRole('listitem').nth(1)).toContainText('Thanks, grinding next.');
  const saved = (await bridgeApi(page, 'GET', `/v1/collection/${card.collection_id}/comment`, undefined, { sort: 'created_at:asc' })).data;
  expect(saved.map((c: any) => [c.text, c.parent_id])).toEqual([
    ['Welds look good.', null],
    ['Thanks, grinding next.', saved[0].id],
  ]);

  // The timer: started, ticking, stopped.
  await panel.getByRole('button', { name: 'Start timer' }).click();
  const clock = panel.getByRole('timer', { name: 'Running time' });
  await expect(clock).toHaveText(/^0:00:0\d$/);
  const firstReading = await clock.textContent();
  await expect(clock).not.toHaveText(firstReading!);
  // The grid is narrower with the panel open: bring the card's days back into view to see it.
  await page.getByRole('button', { name: 'Today' }).click();
  await expect(option).toHaveAccessibleName(/timer running/);
  await panel.getByRole('button', { name: 'Stop timer' }).click();
  await expect(panel.getByRole('button', { name: 'Start timer' })).toBeVisible();
  const entries = (await bridgeApi(page, 'GET', '/v1/time_tracking', undefined, { filter: `card_id:eq:'${card.id}'` })).data;
  expect(entries).toEqual([expect.objectContaining({ running: false, duration: 0 })]);
  await expect(panel.getByRole('table', { name: 'Time entries' }).getByRole('row')).toHaveCount(2);

  // A link, and a file uploaded then downloaded back.
  await panel.getByLabel('Link URL').fill('https://example.com/drawings/1001');
  await panel.getByLabel('Link name').fill('Drawing');
  await panel.getByRole('button', { name: 'Add link' }).click();
  const attachments = panel.getByRole('list', { name: 'Attachments' });
  const link = attachments.getByRole('link', { name: 'Drawing' });
  await expect(link).toHaveAttribute('href', 'https://example.com/drawings/1001');
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  const chooser = page.waitForEvent('filechooser');
  await panel.getByRole('button', { name: 'Add file' }).click();
  await (await chooser).setFiles({ name: 'weld notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Seam 3 needs a second pass.\n') });
  const download = page.waitForEvent('download');
  await attachments.getByRole('button', { name: 'Download weld notes.txt' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('weld notes.txt');
  const stream = await file.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  expect(Buffer.concat(chunks).toString()).toBe('Seam 3 needs a second pass.\n');
  const stored = (await bridgeApi(page, 'GET', `/v1/collection/${card.collection_id}/attachment`, undefined, { sort: 'created_at:asc' }))
    .data;
  expect(stored.map((a: any) => [a.filename, a.type, a.card_id])).toEqual([
    ['Drawing', 'external', card.id],
    ['weld notes.txt', 'upload', card.id],
  ]);

  // A relation to the other card, found by name; its name opens that card here.
  await panel.getByLabel('Relation', { exact: true }).selectOption('blocks');
  await panel.getByLabel('Find a card').fill('1002');
  await panel.getByRole('radio', { name: /Frame 1002/ }).check();
  await panel.getByRole('button', { name: 'Add relation' }).click();
  await expect(panel.getByRole('list', { name: 'Relations' })).toContainText('Blocks Frame 1002');
  expect((await bridgeApi(page, 'GET', '/v1/card_relation', undefined, { filter: `card_id:eq:'${card.id}'` })).data).toEqual([
    expect.objectContaining({ related_card_id: other.id, type: 'blocks' }),
  ]);

  // Split on Wednesday: the card now ends Tuesday, the new one runs Wednesday.
  await panel.getByLabel('New card starts on').fill(addDays(monday, 2));
  await panel.getByRole('button', { name: 'Split card' }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Split Frame 1001/ })).toBeVisible();
  const split = (
    await bridgeApi(page, 'GET', '/v1/card', undefined, { filter: `collection_id:eq:'${card.collection_id}'`, sort: 'start_date:asc' })
  ).data;
  expect(split.map((c: any) => [c.start_date, c.end_date, c.split_from_id])).toEqual([
    [monday, addDays(monday, 1), null],
    [addDays(monday, 2), addDays(monday, 2), card.id],
  ]);
  await page.getByRole('button', { name: 'Today' }).click();
  await expect(cards.getByRole('option', { name: /^Frame 1001/ })).toHaveCount(2);

  // Esc closes the panel and gives focus back to the grid.
  await panel.getByRole('button', { name: 'Split card' }).focus();
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(cards).toBeFocused();
  expect(board.id).toBeTruthy();
});

test('the panel keeps Tab inside, steps to an exit status as done, and deletes a card undoably', async ({ page }) => {
  app = await startApp();
  await page.setViewportSize({ width: 1600, height: 1000 });
  await page.goto(app.url);
  const monday = nextMonday();
  const { card } = await seedFramesBoard(page, monday);
  await bridgeApi(page, 'PUT', `/v1/collection/${card.collection_id}/card/${card.id}`, {
    status_id: (await bridgeApi(page, 'GET', `/v1/board/${card.board_id}/status`, undefined, { sort: 'priority:asc' })).data[1].id,
  });
  await page.reload();

  const cards = page.getByRole('listbox', { name: 'Cards' });
  // Opened from the selection bar this time: focus goes back to its Open button.
  await cards.getByRole('option', { name: /^Frame 1001/ }).click();
  const open = page.getByRole('group', { name: 'Selected cards' }).getByRole('button', { name: 'Open' });
  await open.click();
  const panel = page.getByRole('complementary', { name: 'Card details' });
  await expect(panel.getByRole('heading', { name: 'Frame 1001', level: 2 })).toBeFocused();

  // Shift+Tab from the top wraps to the last control; Tab from there wraps to the first.
  await page.keyboard.press('Shift+Tab');
  await expect(panel.getByRole('button', { name: 'Delete card' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(panel.getByRole('button', { name: 'Close card details' })).toBeFocused();

  await panel.getByRole('button', { name: 'Next status' }).click();
  await expect(panel.getByRole('status', { name: 'Current status' })).toHaveText('Done — done');
  await expect(panel.getByRole('button', { name: 'Next status' })).toBeDisabled();
  await expect(panel.getByRole('list', { name: 'Statuses of the board' })).toContainText('Done (done)');
  // The step is one action in the app's history: Ctrl+Z takes it back, Ctrl+Shift+Z does it again.
  await expect(panel.getByRole('button', { name: 'Next status' })).toBeFocused();
  await page.keyboard.press('Control+z');
  await expect(panel.getByRole('status', { name: 'Current status' })).toHaveText('Doing');
  await page.keyboard.press('Control+Shift+z');
  await expect(panel.getByRole('status', { name: 'Current status' })).toHaveText('Done — done');

  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(open).toBeFocused();
  await open.click();
  await expect(panel.getByRole('heading', { name: 'Frame 1001', level: 2 })).toBeFocused();

  await panel.getByRole('button', { name: 'Delete card' }).click();
  await panel.getByRole('button', { name: 'Confirm delete' }).click();
  await expect(panel).toBeHidden();
  await expect(cards.getByRole('option', { name: /^Frame 1001/ })).toHaveCount(0);
  expect((await bridgeApi(page, 'GET', '/v1/card', undefined, { filter: `id:eq:'${card.id}'` })).count).toBe(0);

  // Ctrl+Z brings it back from the trash.
  await cards.focus();
  await page.keyboard.press('Control+z');
  await expect(cards.getByRole('option', { name: /^Frame 1001/ })).toHaveCount(1);
  expect((await bridgeApi(page, 'GET', '/v1/card', undefined, { filter: `id:eq:'${card.id}'` })).count).toBe(1);
});

test('with the panel open, a click on another card shows that card', async ({ page }) => {
  app = await startApp();
  await page.setViewportSize({ width: 1600, height: 1000 });
  await page.goto(app.url);
  await seedFramesBoard(page, nextMonday());
  await page.reload();

  const cards = page.getByRole('listbox', { name: 'Cards' });
  await cards.getByRole('option', { name: /^Frame 1001/ }).dblclick();
  const panel = page.getByRole('complementary', { name: 'Card details' });
  await expect(panel.getByRole('heading', { name: 'Frame 1001', level: 2 })).toBeVisible();

  // One click, as on the planboard without the panel: the panel follows, so an edit made there
  // lands on the card the planner sees selected.
  await cards.getByRole('option', { name: /^Frame 1002/ }).click();
  await expect(cards.getByRole('option', { name: /^Frame 1002/ })).toHaveAttribute('aria-selected', 'true');
  await expect(panel.getByRole('heading', { name: 'Frame 1002', level: 2 })).toBeVisible();
  await expect(panel.getByLabel('Card name')).toHaveValue('Frame 1002');

  // Ctrl+click adds to the selection and leaves the panel where it is.
  await cards.getByRole('option', { name: /^Frame 1001/ }).click({ modifiers: ['Control'] });
  await expect(panel.getByRole('heading', { name: 'Frame 1002', level: 2 })).toBeVisible();
});
