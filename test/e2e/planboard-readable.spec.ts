/**
 * A plan you can read (issue 18): a deleted card comes back from its toast's Undo, arrows join
 * the cards of a collection from stage to stage (red when the next starts before the one
 * before has ended), a collection's path shows on one line, and the printed plan's PDF has
 * every card of the week in its stage's row.
 *
 * The app runs in browser-host mode with its own data folder; the board is seeded through the
 * page's bridge, the planner's steps are done on screen, and results are read back from the
 * API or, for the PDF, with `pdftotext -layout`.
 */
import { expect, test, type Page } from './fixtures.js';
import { readFile } from 'node:fs/promises';
import { pdfText } from '../helpers/time-report.js';
import { startApp, type RunningApp } from './app.js';
import { addDays, nextMonday } from './dates.js';
import { bridgeApi, bridgeCall, openScreen } from './planner-page.js';

let app: RunningApp | undefined;

test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

interface Seeded {
  boardId: string;
  stages: { id: string; name: string }[];
}

/** A board with stages Sawing and Painting and the status a card needs. */
async function seedBoard(page: Page): Promise<Seeded> {
  const board = await bridgeApi(
    page,
    'POST',
    '/v1/board',
    {
      name: 'Workshop',
      stages: [
        { name: 'Sawing', priority: 0 },
        { name: 'Painting', priority: 1 },
      ],
      statuses: [{ name: 'To do', entry: true, color: 'blue' }],
    },
    { with: 'stages' },
  );
  return { boardId: board.id, stages: board.stages };
}

async function addCard(page: Page, collectionId: string, stageId: string, start: string, end: string): Promise<{ id: string }> {
  return bridgeApi(page, 'POST', `/v1/collection/${collectionId}/card`, { stage_id: stageId, start_date: start, end_date: end });
}

async function newCollection(page: Page, boardId: string, name: string): Promise<{ id: string }> {
  return bridgeApi(page, 'POST', '/v1/collection', { name, board_id: boardId });
}

/** The lines of `text` from the row that starts with `stage` up to the next stage's row. */
function stageSection(text: string, stage: string, stages: readonly string[]): string {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.trimStart().startsWith(stage));
  if (start === -1) return '';
  const next = lines.findIndex((line, at) => at > start && stages.some((other) => other !== stage && line.trimStart().startsWith(other)));
  return lines.slice(start, next === -1 ? undefined : next).join('\n');
}

test("Ctrl+P opens the print preview from any screen, and the printed plan's PDF has every card of the week on its stage, with its hours and people", async ({
  page,
}) => {
  test.setTimeout(120_000);
  app = await startApp();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(app.url);
  const { boardId, stages } = await seedBoard(page);
  const [sawing, painting] = stages;
  const monday = nextMonday();
  const expected: [string, string][] = [];
  for (const [at, name] of ['SO-1001', 'SO-1002', 'SO-1003'].entries()) {
    const collection = await newCollection(page, boardId, name);
    await addCard(page, collection.id, sawing!.id, addDays(monday, at), addDays(monday, at + 1));
    await addCard(page, collection.id, painting!.id, addDays(monday, at + 2), addDays(monday, at + 2));
    expected.push([`${name} · Sawing`, 'Sawing'], [`${name} · Painting`, 'Painting']);
  }
  // The week after: not printed.
  const later = await newCollection(page, boardId, 'SO-9999');
  await addCard(page, later.id, sawing!.id, addDays(monday, 8), addDays(monday, 9));
  // Work and a person on one card: a wall plan says for how long and who.
  const sanding = await bridgeApi(page, 'POST', '/v1/activity', { description: 'Sanding' });
  const anna = await bridgeApi(page, 'POST', '/v1/resource', { name: 'Anna' });
  const sanded = await newCollection(page, boardId, 'SO-1004');
  await bridgeApi(page, 'POST', `/v1/collection/${sanded.id}/card`, {
    stage_id: painting!.id,
    start_date: addDays(monday, 4),
    end_date: addDays(monday, 4),
    activities: [{ id: sanding.id, time: 270 }],
    resources: [{ id: anna.id }],
  });
  expected.push(['SO-1004 · Painting', 'Painting'], ['4.5 h · Anna', 'Painting']);

  // Ctrl+P, as the desktop menu's "Print the plan…", from another screen: the browser's own
  // print dialog would print the screen, not the plan.
  await openScreen(page, 'Time');
  await page.keyboard.press('Control+p');
  const dialog = page.getByRole('dialog', { name: 'Print the plan' });
  await expect(dialog).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Planboard', level: 1 })).toBeVisible();
  await dialog.getByLabel('From').fill(monday);
  await dialog.getByLabel('To').fill(addDays(monday, 6));
  // The preview shows the pages the PDF has, with the cards on them.
  const preview = dialog.getByRole('region', { name: 'The printed plan' });
  await expect(preview.getByText('SO-1003 · Painting')).toBeVisible();
  await expect(preview.getByText('4.5 h · Anna')).toBeVisible();
  await expect(preview.getByText('SO-9999')).toHaveCount(0);

  const download = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Save PDF…' }).click();
  const file = await (await download).path();
  const text = await pdfText(await readFile(file));
  for (const [card, stage] of expected) {
    expect(stageSection(text, stage, ['Sawing', 'Painting']), `${card} in the ${stage} row of\n${text}`).toContain(card);
  }
  expect(text).not.toContain('SO-9999');
  expect(text).toContain('Page 1 of 1');
});

/** The names of the board's live cards' collections, sorted. */
async function cardsOnBoard(page: Page, boardId: string): Promise<string[]> {
  const cards = await bridgeApi(page, 'GET', '/v1/card', undefined, {
    filter: `board_id:eq:'${boardId}'`,
    with: 'collection',
    limit: '100',
  });
  return cards.data.map((card: { collection: { name: string } }) => card.collection.name).sort();
}

/** The work planned on the board's card of a collection: activities and minutes. */
async function workOf(page: Page, boardId: string, name: string): Promise<{ id: string; time: number }[]> {
  const cards = await bridgeApi(page, 'GET', '/v1/card', undefined, {
    filter: `board_id:eq:'${boardId}'`,
    with: 'collection,activities',
    limit: '100',
  });
  const card = cards.data.find((c: { collection: { name: string } }) => c.collection.name === name);
  return card.activities.map((a: { id: string; time: number }) => ({ id: a.id, time: a.time }));
}

test('Delete is undone from its toast, whole, and more than three cards are asked about first', async ({ page }) => {
  test.setTimeout(120_000);
  app = await startApp();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(app.url);
  const { boardId, stages } = await seedBoard(page);
  const sawingWork = await bridgeApi(page, 'POST', '/v1/activity', { description: 'Sawing', resource_type: 'employee' });
  const monday = nextMonday();
  const names = ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo'];
  for (const [at, name] of names.entries()) {
    const collection = await newCollection(page, boardId, name);
    await bridgeApi(page, 'POST', `/v1/collection/${collection.id}/card`, {
      stage_id: stages[0]!.id,
      start_date: addDays(monday, at % 3),
      end_date: addDays(monday, at % 3),
      activities: [{ id: sawingWork.id, time: 240 }],
    });
  }
  await openScreen(page, 'Planboard');
  const cards = page.getByRole('listbox', { name: 'Cards' });
  const card = (name: string) => cards.getByRole('option', { name: new RegExp(`^${name},`) });

  // One card: gone at once, and its toast's Undo brings it back.
  await card('Alpha').click();
  await page.keyboard.press('Delete');
  await expect.poll(() => cardsOnBoard(page, boardId)).toEqual(['Bravo', 'Charlie', 'Delta', 'Echo']);
  const toast = page.getByRole('status').filter({ hasText: /^Deleted Alpha/ });
  await toast.getByRole('button', { name: 'Undo' }).click();
  await expect.poll(() => cardsOnBoard(page, boardId)).toEqual(names);
  await expect(card('Alpha')).toBeVisible();
  // Back with its work: 4 hours of sawing, not an empty card.
  expect(await workOf(page, boardId, 'Alpha')).toEqual([{ id: sawingWork.id, time: 240 }]);

  // Four cards: asked first; Cancel deletes nothing, Delete 4 cards does, and Undo takes it back.
  const four = ['Bravo', 'Charlie', 'Delta', 'Echo'];
  const selectFour = async () => {
    for (const [at, name] of four.entries()) await card(name).click(at === 0 ? {} : { modifiers: ['Control'] });
    await expect(page.getByRole('group', { name: 'Selected cards' })).toContainText('4 cards selected');
  };
  await selectFour();
  await page.keyboard.press('Delete');
  const question = page.getByRole('dialog', { name: 'Delete 4 cards?' });
  await question.getByRole('button', { name: 'Cancel' }).click();
  await expect(question).toBeHidden();
  expect(await cardsOnBoard(page, boardId)).toEqual(names);
  await selectFour();
  await page.keyboard.press('Delete');
  await question.getByRole('button', { name: 'Delete 4 cards' }).click();
  await expect.poll(() => cardsOnBoard(page, boardId)).toEqual(['Alpha']);
  await page
    .getByRole('status')
    .filter({ hasText: /^Deleted 4 cards/ })
    .getByRole('button', { name: 'Undo' })
    .click();
  await expect.poll(() => cardsOnBoard(page, boardId)).toEqual(names);
  for (const name of four) expect(await workOf(page, boardId, name), name).toEqual([{ id: sawingWork.id, time: 240 }]);
});

test('arrows appear between dependent cards, and a late one is red', async ({ page }) => {
  test.setTimeout(120_000);
  app = await startApp();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(app.url);
  const { boardId, stages } = await seedBoard(page);
  const monday = nextMonday();
  const collection = await newCollection(page, boardId, 'SO-1001');
  const sawing = await addCard(page, collection.id, stages[0]!.id, monday, addDays(monday, 1));
  const painting = await addCard(page, collection.id, stages[1]!.id, addDays(monday, 2), addDays(monday, 2));

  await openScreen(page, 'Planboard');
  await expect(page.getByRole('listbox', { name: 'Cards' }).getByRole('option', { name: /^SO-1001,/ })).toHaveCount(2);
  const arrow = page.locator(`svg.pb-arrows path[data-from="${sawing.id}"][data-to="${painting.id}"]`);
  await expect(arrow).toHaveCount(0);
  await page.getByRole('checkbox', { name: 'Arrows' }).check();
  await expect(arrow).toHaveCount(1);
  await expect(arrow).toHaveAttribute('data-late', 'false');
  const red = 'rgb(194, 59, 50)';
  expect(await arrow.evaluate((path) => getComputedStyle(path).stroke)).not.toBe(red);

  // Painting moved to start on Sawing's last day: late, and red.
  await bridgeApi(page, 'PUT', `/v1/collection/${collection.id}/card/${painting.id}`, {
    start_date: addDays(monday, 1),
    end_date: addDays(monday, 1),
  });
  await expect(arrow).toHaveAttribute('data-late', 'true');
  expect(await arrow.evaluate((path) => getComputedStyle(path).stroke)).toBe(red);

  // The relations the arrows also follow are read with the board's filter.
  const relations = await bridgeCall(page, 'GET', '/v1/card_relation', undefined, {
    filter: `card.board_id:eq:'${boardId}'`,
    limit: '1000',
  });
  expect(relations.status).toBe(200);

  await page.getByRole('checkbox', { name: 'Arrows' }).uncheck();
  await expect(arrow).toHaveCount(0);
});

test("a collection's path shows its cards on every stage in stage order, and Escape closes it", async ({ page }) => {
  test.setTimeout(120_000);
  app = await startApp();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(app.url);
  const { boardId, stages } = await seedBoard(page);
  const monday = nextMonday();
  const collection = await newCollection(page, boardId, 'SO-1001');
  // Painting weeks later than the grid shows at first: the path reads the whole collection.
  await addCard(page, collection.id, stages[1]!.id, addDays(monday, 28), addDays(monday, 29));
  await addCard(page, collection.id, stages[0]!.id, monday, addDays(monday, 1));

  await openScreen(page, 'Planboard');
  await page
    .getByRole('listbox', { name: 'Cards' })
    .getByRole('option', { name: /^SO-1001,/ })
    .first()
    .click();
  await page.getByRole('group', { name: 'Selected cards' }).getByRole('button', { name: 'Show path' }).click();
  const path = page.getByRole('region', { name: 'Path of SO-1001' });
  await expect(path.getByRole('listitem')).toHaveCount(2);
  await expect(path.getByRole('listitem').nth(0)).toContainText('Sawing');
  await expect(path.getByRole('listitem').nth(1)).toContainText('Painting');
  await page.keyboard.press('Escape');
  await expect(path).toBeHidden();
});

test('in week view a one-day card shows what tells it apart in its stage row — its order — not the stage the row already names', async ({
  page,
}) => {
  test.setTimeout(120_000);
  app = await startApp();
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(app.url);
  const { boardId, stages } = await seedBoard(page);
  const monday = nextMonday();
  for (const [at, name] of ['SO-1001', 'SO-1002', 'SO-1003'].entries()) {
    const collection = await newCollection(page, boardId, name);
    await addCard(page, collection.id, stages[0]!.id, addDays(monday, at), addDays(monday, at));
  }
  // A card with a name of its own still reads as its order when narrow.
  const renamed = await newCollection(page, boardId, 'SO-1004');
  await bridgeApi(page, 'POST', `/v1/collection/${renamed.id}/card`, {
    stage_id: stages[0]!.id,
    start_date: addDays(monday, 3),
    end_date: addDays(monday, 3),
    name: 'SO-1004 sawing (rush)',
  });

  await openScreen(page, 'Planboard');
  await page.getByRole('group', { name: 'Zoom' }).getByRole('button', { name: 'Week' }).click();
  const cards = page.getByRole('listbox', { name: 'Cards' });
  const shown = async (name: string) => {
    const option = cards.getByRole('option', { name: new RegExp(`^${name}`) });
    await expect(option).toBeVisible();
    // What the card shows, whole: the title's text fits inside the card's box.
    return option.evaluate((card) => {
      const title = card.querySelector<HTMLElement>('.pb-card__title')!;
      const style = getComputedStyle(card);
      const room = card.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return { text: title.textContent, fits: title.scrollWidth <= room };
    });
  };
  expect(await shown('SO-1001')).toEqual({ text: '1001', fits: true });
  expect(await shown('SO-1002')).toEqual({ text: '1002', fits: true });
  expect(await shown('SO-1003')).toEqual({ text: '1003', fits: true });
  expect(await shown('SO-1004 sawing')).toEqual({ text: '1004', fits: true });
  // The whole name stays in the hover title.
  await expect(cards.getByRole('option', { name: /^SO-1001/ })).toHaveAttribute('title', /^SO-1001 · Sawing/);
});
