/**
 * The card detail panel for a Dutch planner: after choosing Nederlands in Settings, a card
 * opened from the planboard shows its sections, fields, buttons and the words it adds to the
 * board's own names (a status that is done, a comment's reply button) in Dutch. Every
 * expectation is a Dutch label, so a panel still in English fails it.
 */
import { expect, test } from './fixtures.js';
import { startApp, type RunningApp } from './app.js';
import { seedFramesBoard } from './card-setup.js';
import { nextMonday } from './dates.js';
import { switchToDutch } from './planner-page.js';

let app: RunningApp | undefined;

test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

test('a Dutch planner reads the card detail panel in Dutch', async ({ page }) => {
  app = await startApp();
  await page.setViewportSize({ width: 1600, height: 1000 });
  await page.goto(app.url);
  await seedFramesBoard(page, nextMonday());

  await switchToDutch(page);
  await page.getByRole('navigation').getByRole('button', { name: 'Planbord', exact: true }).click();

  // Opened as in English: the card selected on the grid, Enter.
  await page.getByRole('option', { name: /^Frame 1001/ }).click();
  await page.keyboard.press('Enter');
  const panel = page.getByRole('complementary', { name: 'Kaartdetails' });
  await expect(panel.getByRole('heading', { name: 'Frame 1001', level: 2 })).toBeFocused();
  await expect(panel).toContainText('Verzameling Frame 1001');
  await expect(panel.getByRole('button', { name: 'Kaartdetails sluiten' })).toBeVisible();

  // Every section's title.
  await expect(panel.getByRole('heading', { level: 3 })).toHaveText([
    'Status',
    'Werk',
    'Eigen velden',
    'Checklists',
    'Opmerkingen',
    'Bijlagen',
    'Relaties',
    'Tijd',
    'Kaart splitsen',
  ]);

  // The card's own fields and their buttons.
  const fields = panel.getByRole('form', { name: 'Kaartvelden' });
  for (const label of ['Naam van de kaart', 'Omschrijving', 'Fase', 'Begindatum', 'Einddatum', 'Begintijd', 'Eindtijd']) {
    await expect(fields.getByLabel(label, { exact: true })).toBeVisible();
  }
  await expect(fields.getByRole('button', { name: 'Kaart opslaan' })).toBeDisabled();
  await expect(fields.getByRole('button', { name: 'Wijzigingen weggooien' })).toBeDisabled();

  // Status: stepped to the board's exit status, which reads as done.
  await expect(panel.getByRole('status', { name: 'Huidige status' })).toHaveText('To do');
  await panel.getByRole('button', { name: 'Volgende status' }).click();
  await expect(panel.getByRole('status', { name: 'Huidige status' })).toHaveText('Doing');
  await panel.getByRole('button', { name: 'Volgende status' }).click();
  await expect(panel.getByRole('status', { name: 'Huidige status' })).toHaveText('Done — klaar');
  await expect(panel.getByRole('list', { name: 'Statussen van het bord' })).toContainText('Done (klaar)');
  await expect(panel.getByRole('button', { name: 'Vorige status' })).toBeEnabled();

  // Labels, the checklists' and comments' forms, attachments, relations, time, split, delete.
  await expect(panel.getByRole('group', { name: 'Labels' }).getByLabel('Rush')).not.toBeChecked();
  await expect(panel.getByRole('group', { name: 'Resources' })).toContainText('Nog geen resources.');
  await expect(panel.getByRole('button', { name: 'Eigen velden opslaan' })).toBeDisabled();
  await expect(panel).toContainText('Nog geen checklists.');
  await expect(panel.getByRole('form', { name: 'Nieuwe checklist' }).getByLabel('Op basis van sjabloon')).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Checklist toevoegen' })).toBeDisabled();
  await expect(panel.getByRole('button', { name: 'Bestand toevoegen' })).toBeEnabled();
  await expect(panel.getByRole('form', { name: 'Nieuwe link' }).getByLabel('URL van de link')).toBeVisible();
  await expect(panel.getByRole('form', { name: 'Nieuwe relatie' }).getByLabel('Kaart zoeken')).toBeVisible();
  await expect(panel.getByRole('form', { name: 'Nieuwe relatie' }).getByLabel('Relatie', { exact: true }).getByRole('option')).toHaveText([
    'Blokkeert',
    'Hangt af van',
    'Gerelateerd aan',
    'Gekloond van',
  ]);
  await expect(panel).toContainText('Nog geen tijd geschreven.');
  await expect(panel.getByRole('button', { name: 'Timer starten' })).toBeEnabled();
  await expect(panel.getByLabel('Nieuwe kaart begint op')).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Kaart verwijderen' })).toBeVisible();

  // A comment, and the button to reply to it.
  await panel.getByLabel('Nieuwe opmerking').fill('Lassen zien er goed uit.');
  await panel.getByRole('button', { name: 'Opmerking plaatsen' }).click();
  const comments = panel.getByRole('list', { name: 'Opmerkingen' });
  await expect(comments.getByRole('button', { name: 'Reageren op Lassen zien er goed uit.' })).toHaveText('Reageren');
});
