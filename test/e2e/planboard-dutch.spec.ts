/**
 * The planboard for a Dutch planner: after choosing Nederlands in Settings, the toolbar, the
 * zoom, the date header (day and month names), the cards' read-out dates and the shortcut
 * list are Dutch. Every expectation is a Dutch word, so an English planboard fails it.
 */
import { expect, test, type Page } from '@playwright/test';
import { startApp, type RunningApp } from './app.js';

let app: RunningApp | undefined;

test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

/** A call to the Planning API through the page's bridge, as an integration would make it. */
async function api(page: Page, method: string, path: string, body?: unknown, query?: Record<string, string>): Promise<any> {
  const answer = await page.evaluate(
    async ({ method, path, body, query }) => {
      const response = await fetch('/bridge/request', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-planner-bridge': '1' },
        body: JSON.stringify({ method, path, body, query }),
      });
      return response.json();
    },
    { method, path, body, query },
  );
  if (answer.status >= 300) throw new Error(`${method} ${path}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** The next Monday after today (local time): a workday inside the first screen of the board. */
function nextMonday(): Date {
  const date = new Date();
  date.setHours(12, 0, 0, 0);
  date.setDate(date.getDate() + (((8 - date.getDay()) % 7) || 7));
  return date;
}

function isoDate(date: Date): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

// Written out rather than asked of Intl, so the test does not share the app's way of making them.
const dutchDays = ['zo', 'ma', 'di', 'wo', 'do', 'vr', 'za'];
const dutchMonths = ['jan', 'feb', 'mrt', 'apr', 'mei', 'jun', 'jul', 'aug', 'sep', 'okt', 'nov', 'dec'];
const dutchLongMonths = ['januari', 'februari', 'maart', 'april', 'mei', 'juni', 'juli', 'augustus', 'september', 'oktober', 'november', 'december'];

/** "ma 23 nov 2026", as a Dutch planner hears a card's date read out. */
function dutchLongDate(date: Date): string {
  return `${dutchDays[date.getDay()]} ${date.getDate()} ${dutchMonths[date.getMonth()]} ${date.getFullYear()}`;
}

test('a Dutch planner reads the planboard’s tools, dates and shortcuts in Dutch', async ({ page }) => {
  app = await startApp();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(app.url);
  const monday = nextMonday();
  const board = await api(
    page,
    'POST',
    '/v1/board',
    { name: 'Meubels', stages: [{ name: 'Zagen', priority: 0 }, { name: 'Schuren', priority: 1 }], statuses: [{ name: 'Te doen', entry: true, color: 'blue' }] },
    { with: 'stages' },
  );
  const collection = await api(page, 'POST', '/v1/collection', { name: 'Tafel', board_id: board.id });
  await api(page, 'POST', `/v1/collection/${collection.id}/board/${board.id}`, { start: isoDate(monday), stage_id: board.stages[0].id });

  await page.getByRole('navigation').getByRole('button', { name: 'Settings', exact: true }).click();
  await page.getByLabel('Language of the app').selectOption({ label: 'Nederlands' });
  await page.getByRole('navigation').getByRole('button', { name: 'Planbord', exact: true }).click();

  // The screen and its toolbar.
  await expect(page.getByRole('heading', { name: 'Planbord', level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Nieuw bord' })).toBeVisible();
  const zoom = page.getByRole('group', { name: 'Zoomniveau' });
  await expect(zoom.getByRole('button')).toHaveText(['Dag', 'Week', 'Maand']);
  await expect(page.getByRole('button', { name: 'Vandaag' })).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'Capaciteit' })).toBeChecked();
  await expect(page.getByRole('button', { name: 'Ongedaan maken' })).toBeDisabled();
  await expect(page.getByRole('list', { name: 'Fasen' }).getByRole('listitem')).toHaveText(['Zagen', 'Schuren']);

  // The card reads its date out in Dutch; the week band names the month in Dutch.
  const cards = page.getByRole('listbox', { name: 'Kaarten' });
  await expect(cards.getByRole('option', { name: /^Tafel/ })).toHaveAccessibleName(`Tafel, ${dutchLongDate(monday)}, Zagen, status Te doen`);
  const upper = page.locator('.pb-dates__band--upper');
  await expect(upper).toContainText(new RegExp(`wk \\d+ · ${dutchMonths[monday.getMonth()]} ${monday.getFullYear()}`));

  // Day zoom: Dutch day names over the days.
  await zoom.getByRole('button', { name: 'Dag' }).click();
  await expect(page.locator(`.pb-dates__band--lower [data-date="${isoDate(monday)}"]`)).toHaveText(`ma ${monday.getDate()}`);

  // Month zoom: Dutch month names.
  await zoom.getByRole('button', { name: 'Maand' }).click();
  const today = new Date();
  await expect(upper).toContainText(`${dutchLongMonths[today.getMonth()]} ${today.getFullYear()}`);

  // The shortcut list.
  await cards.focus();
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Sneltoetsen' });
  await expect(help).toContainText('De gekozen kaarten een dag eerder / later zetten');
  await expect(help.getByRole('term')).toContainText(['← → ↑ ↓', 'Enter', 'Esc', 'Alt + ← / →', 'Alt + ↑ / ↓', 'Delete', 'Shift + klik, Ctrl + klik', 'Dubbelklik']);
  await help.getByRole('button', { name: 'Sluiten' }).click();
  await expect(help).toBeHidden();
});
