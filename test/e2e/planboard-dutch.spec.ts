/**
 * The planboard for a Dutch planner: after choosing Nederlands in Settings, the toolbar, the
 * zoom, the date header (day and month names), the cards' read-out dates and the shortcut
 * list are Dutch. Every expectation is a Dutch word, so an English planboard fails it.
 */
import { expect, test } from './fixtures.js';
import { startApp, type RunningApp } from './app.js';
import { nextMonday, testNow } from './dates.js';
import { dayOnDateBar } from './planboard-grid.js';
import { bridgeApi, switchToDutch } from './planner-page.js';

let app: RunningApp | undefined;

test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

// Written out rather than asked of Intl, so the test does not share the app's way of making them.
const dutchDays = ['zo', 'ma', 'di', 'wo', 'do', 'vr', 'za'];
const dutchMonths = ['jan', 'feb', 'mrt', 'apr', 'mei', 'jun', 'jul', 'aug', 'sep', 'okt', 'nov', 'dec'];
const dutchLongMonths = [
  'januari',
  'februari',
  'maart',
  'april',
  'mei',
  'juni',
  'juli',
  'augustus',
  'september',
  'oktober',
  'november',
  'december',
];

/** "ma 23 nov 2026", as a Dutch planner hears a card's date read out. */
function dutchLongDate(date: Date): string {
  return `${dutchDays[date.getDay()]} ${date.getDate()} ${dutchMonths[date.getMonth()]} ${date.getFullYear()}`;
}

test('a Dutch planner reads the planboard’s tools, dates and shortcuts in Dutch', async ({ page }) => {
  app = await startApp();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(app.url);
  const monday = nextMonday();
  const mondayDate = new Date(`${monday}T12:00:00`);
  const board = await bridgeApi(
    page,
    'POST',
    '/v1/board',
    {
      name: 'Meubels',
      stages: [
        { name: 'Zagen', priority: 0 },
        { name: 'Schuren', priority: 1 },
      ],
      statuses: [{ name: 'Te doen', entry: true, color: 'blue' }],
    },
    { with: 'stages' },
  );
  const collection = await bridgeApi(page, 'POST', '/v1/collection', { name: 'Tafel', board_id: board.id });
  await bridgeApi(page, 'POST', `/v1/collection/${collection.id}/board/${board.id}`, { start: monday, stage_id: board.stages[0].id });

  await switchToDutch(page);
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
  await expect(cards.getByRole('option', { name: /^Tafel/ })).toHaveAccessibleName(
    `Tafel, ${dutchLongDate(mondayDate)}, Zagen, status Te doen`,
  );
  const upper = page.locator('.pb-dates__band--upper');
  await expect(upper).toContainText(new RegExp(`wk \\d+ · ${dutchMonths[mondayDate.getMonth()]} ${mondayDate.getFullYear()}`));

  // Day zoom: Dutch day names over the days.
  await zoom.getByRole('button', { name: 'Dag' }).click();
  await expect(dayOnDateBar(page, monday)).toHaveText(`ma ${mondayDate.getDate()}`);

  // Month zoom: Dutch month names.
  await zoom.getByRole('button', { name: 'Maand' }).click();
  const today = new Date(testNow);
  await expect(upper).toContainText(`${dutchLongMonths[today.getMonth()]} ${today.getFullYear()}`);

  // The shortcut list.
  await cards.focus();
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Sneltoetsen' });
  await expect(help).toContainText('De gekozen kaarten een dag eerder / later zetten');
  await expect(help.getByRole('term')).toContainText([
    '← → ↑ ↓',
    'Enter',
    'Esc',
    'Alt + ← / →',
    'Alt + ↑ / ↓',
    'Delete',
    'Shift + klik, Ctrl + klik',
    'Dubbelklik',
  ]);
  await help.getByRole('button', { name: 'Sluiten' }).click();
  await expect(help).toBeHidden();
});
