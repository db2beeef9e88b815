/**
 * The plan hears the floor (docs/API.md "The floor"): when an operator starts a job, the
 * planner's board shows who started it and when, within 2 s of the write; when the job is
 * finished (its time stopped, the card in the exit status), who finished it and when. The
 * board learns of both from the change events it already follows, with no reload.
 *
 * The board: Workshop, stage Welding, statuses To do (entry) and Done (exit). Frame sits on
 * the Wednesday of next week; Max (a user) books on it.
 */
import { expect, test, type Page } from './fixtures.js';
import { startApp, type RunningApp } from './app.js';
import { addDays, nextMonday } from './dates.js';
import { bridgeApi, openScreen } from './planner-page.js';

let app: RunningApp | undefined;

test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

const wednesday = addDays(nextMonday(), 2);

async function seed(page: Page): Promise<{ cardPath: string; done: string; max: string; card: string }> {
  const board = await bridgeApi(
    page,
    'POST',
    '/v1/board',
    {
      name: 'Workshop',
      stages: [{ name: 'Welding', priority: 0 }],
      statuses: [
        { name: 'To do', entry: true, color: 'blue', priority: 0 },
        { name: 'Done', exit: true, color: 'green', priority: 1 },
      ],
    },
    { with: 'stages,statuses' },
  );
  const collection = await bridgeApi(page, 'POST', '/v1/collection', { name: 'Frame', board_id: board.id });
  const card = await bridgeApi(page, 'POST', `/v1/collection/${collection.id}/card`, {
    stage_id: board.stages[0].id,
    start_date: wednesday,
    end_date: wednesday,
  });
  // An invitation answers no body: Max is found by his e-mail, and named.
  await bridgeApi(page, 'POST', '/v1/user', { email: 'max@example.com', role: 'member' });
  const invited = (await bridgeApi(page, 'GET', '/v1/user', undefined, { filter: "email:eq:'max@example.com'" })).data[0];
  const max = await bridgeApi(page, 'PUT', `/v1/user/${invited.id}`, { firstname: 'Max' });
  const done = board.statuses.find((s: { exit: boolean }) => s.exit).id as string;
  return { cardPath: `/v1/collection/${collection.id}/card/${card.id}`, done, max: max.id, card: card.id };
}

test('the board shows who started a job and when, then who finished it', async ({ page }) => {
  app = await startApp();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(app.url);
  const { cardPath, done, max, card } = await seed(page);
  await openScreen(page, 'Planboard');
  const frame = page.getByRole('option', { name: /^Frame/ });
  await expect(frame).toBeVisible();
  await expect(frame).not.toHaveAttribute('aria-label', /started by/);

  // Max starts the job (as the floor's Start does): the board says so within 2 s, without a reload.
  const entry = await bridgeApi(page, 'POST', '/v1/time_tracking/start', { card_id: card, user_id: max });
  await expect(frame).toHaveAttribute('aria-label', /started by Max at /, { timeout: 2_000 });
  await expect(frame.locator('.pb-card__timer')).toHaveAttribute('title', /^started by Max at /);

  // Max finishes it: the time stops and the card moves to Done.
  await bridgeApi(page, 'POST', `/v1/time_tracking/${entry.id}/stop`, {});
  await bridgeApi(page, 'PUT', cardPath, { status_id: done });
  await expect(frame).toHaveAttribute('aria-label', /finished by Max at /, { timeout: 2_000 });
  await expect(frame).not.toHaveAttribute('aria-label', /started by/);
  await expect(frame.locator('.pb-card__timer')).toHaveCount(0);
});
