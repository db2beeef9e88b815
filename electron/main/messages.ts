/**
 * Every word the shell itself shows (menus, dialogs), in each language the UI speaks. The
 * Dutch table is typed against the English one, so a missing translation fails to compile.
 * To add a language: add it to `ShellLanguage` in shared/ipc.ts and a table here.
 */
import type { ShellLanguage, ShellSettings } from '../../shared/ipc.js';

const en = {
  // menus
  'menu.file': 'File',
  'menu.newCollection': 'New collection',
  'menu.exportTimeReport': 'Export time report…',
  'menu.backup': 'Back up…',
  'menu.restore': 'Restore from backup…',
  'menu.settings': 'Settings…',
  'menu.closeWindow': 'Close window',
  'menu.quit': 'Quit Planner',
  'menu.edit': 'Edit',
  'menu.undo': 'Undo',
  'menu.redo': 'Redo',
  'menu.cut': 'Cut',
  'menu.copy': 'Copy',
  'menu.paste': 'Paste',
  'menu.selectAll': 'Select all',
  'menu.view': 'View',
  'menu.reload': 'Reload',
  'menu.forceReload': 'Force reload',
  'menu.toggleDevTools': 'Developer tools',
  'menu.resetZoom': 'Actual size',
  'menu.zoomIn': 'Zoom in',
  'menu.zoomOut': 'Zoom out',
  'menu.fullScreen': 'Toggle full screen',
  'menu.window': 'Window',
  'menu.minimize': 'Minimize',
  'menu.zoom': 'Zoom',
  'menu.front': 'Bring all to front',
  'menu.help': 'Help',
  'menu.about': 'About Planner',
  'menu.openDataFolder': 'Open data folder',
  'menu.openLogs': 'Open logs folder',
  'menu.services': 'Services',
  'menu.hide': 'Hide Planner',
  'menu.hideOthers': 'Hide others',
  'menu.unhide': 'Show all',
  // closing with changes not yet synced
  'pending.title': 'Changes not synced yet',
  'pending.message': 'Changes not sent to {remote} yet: {count}.',
  'pending.detail': 'They stay safe on this computer and are sent the next time Planner syncs, but colleagues will not see them until then.',
  'pending.syncFailed': 'Syncing did not finish: {error}',
  'pending.syncNow': 'Sync now',
  'pending.quitAnyway': 'Quit anyway',
  'common.cancel': 'Cancel',
  'common.ok': 'OK',
  // files
  'filter.csv': 'CSV file',
  'filter.xlsx': 'Excel workbook',
  'filter.pdf': 'PDF document',
  'filter.backup': 'Planner backup',
  'filter.attachment': 'Documents and images',
  'save.title': 'Save export',
  'save.wrongExtension': 'Choose a file name ending in .{extension}.',
  'save.exists': 'A file named {file} already exists; choose another name.',
  'open.attachmentTitle': 'Choose a file to attach',
  'open.notAllowed': 'Files of this type cannot be attached. Allowed: {extensions}.',
  'open.tooLarge': 'The file is larger than {limit} MiB.',
  // backup and restore
  'backup.title': 'Back up Planner data',
  'backup.fileName': 'Planner backup {date}',
  'backup.done': 'The backup is saved as {file}.',
  'backup.failed': 'The backup could not be made',
  'restore.title': 'Restore a Planner backup',
  'restore.confirm': 'Replace all data with the backup of {date}?',
  'restore.confirmDetail': 'The data you have now is kept in {folder}.',
  'restore.pendingWarning': 'Changes not synced yet, which are not in the backup and will be replaced too: {count}.',
  'restore.button': 'Restore',
  'restore.refused': 'This file cannot be restored',
  'restore.done': 'The backup of {date} is restored.',
  'restore.failed': 'Restoring failed; your data is as it was',
  // sign-in
  'signIn.noKeychain':
    'Planner cannot store the sign-in securely on this computer, because no system keychain is available (on Linux: install and unlock GNOME Keyring or KWallet). Nothing was stored.',
  'signIn.timeout': 'The sign-in was not finished within {minutes} minutes. Try again.',
  'signIn.stateMismatch': 'The browser came back with an answer to another sign-in, so it was refused. Try again.',
  'signIn.refused': 'The remote refused the sign-in: {reason}',
  'signIn.unreachable': 'The remote could not be reached: {reason}',
  'signIn.busy': 'A sign-in is already in progress in your browser.',
  'signIn.browserDone': 'Signed in to Planner. You can close this tab and go back to the app.',
  'signIn.browserFailed': 'Sign-in did not work. You can close this tab and try again in the app.',
  // errors
  'error.title': 'Something went wrong',
  'error.detail': 'It has been written to the log (reference {reference}).',
  'error.more': 'Errors logged since, not shown: {count}.',
  'error.rendererGone': 'The Planner window stopped unexpectedly ({reason}).',
  'error.reload': 'Reload',
  'error.openLogs': 'Open logs folder',
} as const;

export type MessageKey = keyof typeof en;
export const messageKeys = Object.keys(en) as MessageKey[];

const nl: Record<MessageKey, string> = {
  'menu.file': 'Bestand',
  'menu.newCollection': 'Nieuwe verzameling',
  'menu.exportTimeReport': 'Urenrapport exporteren…',
  'menu.backup': 'Back-up maken…',
  'menu.restore': 'Back-up terugzetten…',
  'menu.settings': 'Instellingen…',
  'menu.closeWindow': 'Venster sluiten',
  'menu.quit': 'Planner afsluiten',
  'menu.edit': 'Bewerken',
  'menu.undo': 'Ongedaan maken',
  'menu.redo': 'Opnieuw',
  'menu.cut': 'Knippen',
  'menu.copy': 'Kopiëren',
  'menu.paste': 'Plakken',
  'menu.selectAll': 'Alles selecteren',
  'menu.view': 'Beeld',
  'menu.reload': 'Opnieuw laden',
  'menu.forceReload': 'Geforceerd opnieuw laden',
  'menu.toggleDevTools': 'Ontwikkelaarshulpmiddelen',
  'menu.resetZoom': 'Werkelijke grootte',
  'menu.zoomIn': 'Inzoomen',
  'menu.zoomOut': 'Uitzoomen',
  'menu.fullScreen': 'Volledig scherm aan/uit',
  'menu.window': 'Venster',
  'menu.minimize': 'Minimaliseren',
  'menu.zoom': 'Zoomen',
  'menu.front': 'Alles naar voorgrond',
  'menu.help': 'Help',
  'menu.about': 'Over Planner',
  'menu.openDataFolder': 'Gegevensmap openen',
  'menu.openLogs': 'Logmap openen',
  'menu.services': 'Voorzieningen',
  'menu.hide': 'Planner verbergen',
  'menu.hideOthers': 'Andere verbergen',
  'menu.unhide': 'Alles tonen',
  'pending.title': 'Wijzigingen nog niet gesynchroniseerd',
  'pending.message': 'Wijzigingen die nog niet naar {remote} zijn verstuurd: {count}.',
  'pending.detail': 'Ze blijven veilig op deze computer en worden verstuurd zodra Planner weer synchroniseert, maar collega’s zien ze pas daarna.',
  'pending.syncFailed': 'Synchroniseren is niet gelukt: {error}',
  'pending.syncNow': 'Nu synchroniseren',
  'pending.quitAnyway': 'Toch afsluiten',
  'common.cancel': 'Annuleren',
  'common.ok': 'OK',
  'filter.csv': 'CSV-bestand',
  'filter.xlsx': 'Excel-werkmap',
  'filter.pdf': 'PDF-document',
  'filter.backup': 'Planner-back-up',
  'filter.attachment': 'Documenten en afbeeldingen',
  'save.title': 'Export opslaan',
  'save.wrongExtension': 'Kies een bestandsnaam die eindigt op .{extension}.',
  'save.exists': 'Er bestaat al een bestand {file}; kies een andere naam.',
  'open.attachmentTitle': 'Kies een bestand om toe te voegen',
  'open.notAllowed': 'Dit soort bestand kan niet worden toegevoegd. Toegestaan: {extensions}.',
  'open.tooLarge': 'Het bestand is groter dan {limit} MiB.',
  'backup.title': 'Back-up van Planner-gegevens maken',
  'backup.fileName': 'Planner back-up {date}',
  'backup.done': 'De back-up is opgeslagen als {file}.',
  'backup.failed': 'De back-up kon niet worden gemaakt',
  'restore.title': 'Planner-back-up terugzetten',
  'restore.confirm': 'Alle gegevens vervangen door de back-up van {date}?',
  'restore.confirmDetail': 'De gegevens die u nu hebt, blijven bewaard in {folder}.',
  'restore.pendingWarning': 'Nog niet gesynchroniseerde wijzigingen, die niet in de back-up staan en ook worden vervangen: {count}.',
  'restore.button': 'Terugzetten',
  'restore.refused': 'Dit bestand kan niet worden teruggezet',
  'restore.done': 'De back-up van {date} is teruggezet.',
  'restore.failed': 'Terugzetten is mislukt; uw gegevens zijn ongewijzigd',
  'signIn.noKeychain':
    'Planner kan de aanmelding niet veilig bewaren op deze computer, omdat er geen sleutelhanger van het systeem beschikbaar is (op Linux: installeer en ontgrendel GNOME Keyring of KWallet). Er is niets opgeslagen.',
  'signIn.timeout': 'De aanmelding is niet binnen {minutes} minuten afgerond. Probeer het opnieuw.',
  'signIn.stateMismatch': 'De browser kwam terug met een antwoord op een andere aanmelding; dat is geweigerd. Probeer het opnieuw.',
  'signIn.refused': 'De server weigerde de aanmelding: {reason}',
  'signIn.unreachable': 'De server is niet bereikbaar: {reason}',
  'signIn.busy': 'Er loopt al een aanmelding in uw browser.',
  'signIn.browserDone': 'Aangemeld bij Planner. U kunt dit tabblad sluiten en teruggaan naar de app.',
  'signIn.browserFailed': 'Aanmelden is niet gelukt. U kunt dit tabblad sluiten en het in de app opnieuw proberen.',
  'error.title': 'Er ging iets mis',
  'error.detail': 'Het is vastgelegd in het logboek (referentie {reference}).',
  'error.more': 'Sindsdien vastgelegde, niet getoonde fouten: {count}.',
  'error.rendererGone': 'Het Planner-venster is onverwacht gestopt ({reason}).',
  'error.reload': 'Opnieuw laden',
  'error.openLogs': 'Logmap openen',
};

const tables: Record<ShellLanguage, Record<MessageKey, string>> = { en, nl };

export type Translate = (key: MessageKey, values?: Record<string, string | number>) => string;

/** The language to show: the setting, or the OS language when it is one we speak. */
export function resolveLanguage(setting: ShellSettings['language'], osLocale: string): ShellLanguage {
  if (setting !== 'system') return setting;
  const primary = osLocale.toLowerCase().split(/[-_]/)[0] ?? '';
  return Object.hasOwn(tables, primary) ? (primary as ShellLanguage) : 'en';
}

export function translator(language: ShellLanguage): Translate {
  const table = tables[language];
  return (key, values = {}) => table[key].replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(values, name) ? String(values[name]) : whole));
}
