/**
 * The setup screens in Dutch: a planner who switched the app to Nederlands adds an activity,
 * sets up a board with a stage, a status and a label, adds a resource that works on the stage,
 * and a project, reading Dutch labels, buttons and row texts all the way.
 */
import { expect, test } from './fixtures.js';
import { startApp, type RunningApp } from './app.js';
import { openScreen, switchToDutch } from './planner-page.js';

let app: RunningApp | undefined;

test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

test('activities, board setup, resources and projects speak Dutch', async ({ page }) => {
  app = await startApp();
  await page.goto(app.url);
  await switchToDutch(page);

  // Activities
  await openScreen(page, 'Activiteiten');
  await expect(page.getByText('Nog geen activiteiten')).toBeVisible();
  const activityForm = page.getByRole('form', { name: 'Nieuwe activiteit' });
  await activityForm.getByLabel('Naam van de activiteit').fill('Schilderen');
  await expect(activityForm.getByLabel('Code', { exact: true })).toHaveAttribute('placeholder', 'Niet verplicht');
  await expect(activityForm.getByLabel('Soort resource').locator('option:checked')).toHaveText('Medewerker');
  await activityForm.getByLabel('Standaardduur (minuten)').fill('90');
  await activityForm.getByLabel('Declarabel').check();
  await activityForm.getByRole('button', { name: 'Activiteit opslaan' }).click();
  const painting = page.getByRole('list', { name: 'Activiteiten' }).getByRole('listitem').filter({ hasText: 'Schilderen' });
  await expect(painting).toContainText('Medewerker · 1 u 30 min');
  await expect(page.getByText('1 activiteit', { exact: true })).toBeVisible();
  await expect(painting.getByRole('button', { name: 'Schilderen bewerken' })).toHaveText('Bewerken');

  // Board setup
  await openScreen(page, 'Planbord');
  await page.getByRole('button', { name: 'Nieuw bord' }).click();
  await expect(page.getByRole('heading', { name: 'Nieuw bord', level: 1 })).toBeVisible();
  await page.getByLabel('Naam van het bord').fill('Keukenlijn');
  await page.getByLabel('Kleur van het bord').selectOption({ label: 'Blauwgroen' });
  await page.getByRole('group', { name: 'Werkdagen' }).getByLabel('Zaterdag').check();
  await page.getByLabel('Gedrag bij afhankelijkheden').selectOption({ label: 'Afhankelijke kaarten opschuiven' });
  await expect(page.getByLabel('Capaciteitsmethode').locator('option:checked')).toHaveText('Uren van de resources');
  await expect(page.getByText('Nog geen fasen. Fasen zijn de rijen van het planbord.')).toBeVisible();

  await page.getByRole('button', { name: 'Fase toevoegen' }).click();
  await page.getByLabel('Fase 1 Naam').fill('Zagen');
  await page.getByLabel('Fase 1 Wachtdagen').fill('1');
  await page.getByRole('group', { name: 'Fase 1 Toegestane activiteiten' }).getByLabel('Schilderen').check();
  await expect(page.getByRole('button', { name: 'Fase 1 omhoog verplaatsen' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Fase 1 verwijderen' })).toHaveText('Verwijderen');

  await page.getByRole('button', { name: 'Status toevoegen' }).click();
  await page.getByLabel('Status 1 Naam').fill('Te doen');
  await expect(page.getByText('Geen enkele status is een beginstatus')).toBeVisible();
  await page.getByLabel('Status 1 Beginstatus').check();
  await expect(page.getByText('Geen enkele status is een beginstatus')).toBeHidden();

  await page.getByRole('button', { name: 'Label toevoegen' }).click();
  await page.getByLabel('Label 1 Naam').fill('Spoed');
  await page.getByLabel('Label 1 Kleur').selectOption({ label: 'Rood' });
  await page.getByRole('button', { name: 'Bord opslaan' }).click();
  await expect(page.getByLabel('Bord', { exact: true })).toHaveText('Keukenlijn');

  await page.getByRole('button', { name: 'Bordinstellingen' }).click();
  await expect(page.getByRole('heading', { name: 'Bordinstellingen: Keukenlijn', level: 1 })).toBeVisible();
  await expect(page.getByLabel('Fase 1 Naam')).toHaveValue('Zagen');
  await page.getByRole('button', { name: 'Annuleren' }).click();

  // Resources
  await openScreen(page, 'Resources');
  await expect(page.getByText('Nog geen resources')).toBeVisible();
  const resourceForm = page.getByRole('form', { name: 'Nieuwe resource' });
  await resourceForm.getByLabel('Naam van de resource').fill('Anna');
  await expect(resourceForm.getByRole('group', { name: 'Uren per weekdag (leeg: werkt niet)' })).toBeVisible();
  await resourceForm.getByLabel('Zaterdag uren').fill('4');
  await expect(resourceForm.getByLabel('Begindatum')).toBeVisible();
  const worksOn = resourceForm.getByRole('group', { name: 'Werkt in' });
  await worksOn.getByRole('group', { name: 'Keukenlijn' }).getByRole('checkbox', { name: 'Zagen', exact: true }).check();
  await worksOn.getByLabel('Percentage Zagen').fill('50');
  await resourceForm.getByRole('button', { name: 'Resource opslaan' }).click();
  const anna = page.getByRole('list', { name: 'Resources' }).getByRole('listitem').filter({ hasText: 'Anna' });
  await expect(anna).toContainText('Medewerker · Keukenlijn: Zagen 50%');

  await anna.getByRole('button', { name: 'Anna verwijderen' }).click();
  await expect(anna).toContainText('“Anna” verwijderen?');
  await anna.getByRole('button', { name: 'Ja, verwijderen' }).click();
  await expect(page.getByText('Nog geen resources')).toBeVisible();

  // Projects
  await openScreen(page, 'Projecten');
  await expect(page.getByText('Nog geen projecten')).toBeVisible();
  await page.getByLabel('Naam van het nieuwe project').fill('Keuken');
  await page.getByRole('button', { name: 'Project aanmaken' }).click();
  await expect(page.getByText('1 project', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Keuken hernoemen' }).click();
  await expect(page.getByLabel('Projectnaam')).toHaveValue('Keuken');
  await expect(page.getByRole('button', { name: 'Opslaan' })).toBeVisible();
});
