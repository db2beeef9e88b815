/**
 * The application menu. Items the page acts on (undo, new collection, …) are sent to it as
 * `MenuCommand`s on the menu channel; the rest are Electron roles or main's own actions
 * (backup, open the data folder). Every label comes from the message table, so the menu
 * speaks the planner's language; the template is built by a plain function so tests can
 * check it item by item.
 */
import { BrowserWindow, Menu, type BaseWindow, type MenuItemConstructorOptions } from 'electron';
import { menuAccelerators, shellChannels, type MenuCommand, type MenuCommandMessage } from '../../shared/ipc.js';
import type { Translate } from './messages.js';
import { isAppUrl } from './protocol.js';

export interface MenuActions {
  /** A command for the page in `window` (the focused one when the item was chosen). */
  command(command: MenuCommand, window: BaseWindow | undefined): void;
  backup(): void;
  restore(): void;
  openDataFolder(): void;
  openLogs(): void;
}

export interface MenuOptions {
  platform: NodeJS.Platform;
  /** Development builds get reload and the developer tools; a planner's copy does not. */
  isDev: boolean;
  t: Translate;
  actions: MenuActions;
}

const separator: MenuItemConstructorOptions = { type: 'separator' };

export function buildMenuTemplate({ platform, isDev, t, actions }: MenuOptions): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin';
  const command = (id: MenuCommand, label: string): MenuItemConstructorOptions => ({
    id,
    label,
    accelerator: menuAccelerators[id],
    click: (_item, window) => actions.command(id, window),
  });

  const appMenu: MenuItemConstructorOptions = {
    label: 'Planner',
    submenu: [
      { role: 'about', label: t('menu.about') },
      separator,
      command('open-settings', t('menu.settings')),
      separator,
      { role: 'services', label: t('menu.services') },
      separator,
      { role: 'hide', label: t('menu.hide') },
      { role: 'hideOthers', label: t('menu.hideOthers') },
      { role: 'unhide', label: t('menu.unhide') },
      separator,
      { role: 'quit', label: t('menu.quit') },
    ],
  };

  const file: MenuItemConstructorOptions = {
    label: t('menu.file'),
    submenu: [
      command('new-collection', t('menu.newCollection')),
      command('export-time-report', t('menu.exportTimeReport')),
      command('print-plan', t('menu.printPlan')),
      separator,
      { id: 'backup', label: t('menu.backup'), click: () => actions.backup() },
      { id: 'restore', label: t('menu.restore'), click: () => actions.restore() },
      ...(mac ? [] : [separator, command('open-settings', t('menu.settings'))]),
      separator,
      // macOS keeps Quit in the app menu and closes windows from File.
      mac ? { role: 'close', label: t('menu.closeWindow') } : { role: 'quit', label: t('menu.quit'), accelerator: 'CmdOrCtrl+Q' },
    ],
  };

  const edit: MenuItemConstructorOptions = {
    label: t('menu.edit'),
    submenu: [
      command('undo', t('menu.undo')),
      command('redo', t('menu.redo')),
      separator,
      { role: 'cut', label: t('menu.cut') },
      { role: 'copy', label: t('menu.copy') },
      { role: 'paste', label: t('menu.paste') },
      { role: 'selectAll', label: t('menu.selectAll') },
    ],
  };

  const developer: MenuItemConstructorOptions[] = isDev
    ? [
        { role: 'reload', label: t('menu.reload') },
        { role: 'forceReload', label: t('menu.forceReload') },
        { role: 'toggleDevTools', label: t('menu.toggleDevTools') },
        separator,
      ]
    : [];
  const view: MenuItemConstructorOptions = {
    label: t('menu.view'),
    submenu: [
      ...developer,
      { role: 'resetZoom', label: t('menu.resetZoom') },
      { role: 'zoomIn', label: t('menu.zoomIn') },
      { role: 'zoomOut', label: t('menu.zoomOut') },
      separator,
      { role: 'togglefullscreen', label: t('menu.fullScreen') },
    ],
  };

  const window: MenuItemConstructorOptions = {
    role: 'window',
    label: t('menu.window'),
    submenu: [
      { role: 'minimize', label: t('menu.minimize') },
      { role: 'zoom', label: t('menu.zoom') },
      ...(mac
        ? [separator, { role: 'front', label: t('menu.front') } as const]
        : [{ role: 'close', label: t('menu.closeWindow') } as const]),
    ],
  };

  const help: MenuItemConstructorOptions = {
    role: 'help',
    label: t('menu.help'),
    submenu: [
      ...(mac ? [] : [{ role: 'about', label: t('menu.about') } as const, separator]),
      { id: 'open-data-folder', label: t('menu.openDataFolder'), click: () => actions.openDataFolder() },
      { id: 'open-logs', label: t('menu.openLogs'), click: () => actions.openLogs() },
    ],
  };

  return [...(mac ? [appMenu] : []), file, edit, view, window, help];
}

export function installApplicationMenu(options: MenuOptions): void {
  Menu.setApplicationMenu(Menu.buildFromTemplate(buildMenuTemplate(options)));
}

/**
 * Sends a menu command to the app page in `window`, or in the focused window when the item
 * was chosen with none (macOS). Only a window showing the app's own page gets it.
 */
export function sendMenuCommand(command: MenuCommand, window: BaseWindow | undefined): boolean {
  const target =
    (window instanceof BrowserWindow ? window : undefined) ?? BrowserWindow.getFocusedWindow() ?? BrowserWindow.getAllWindows()[0];
  if (!target || target.isDestroyed()) return false;
  const contents = target.webContents;
  if (contents.isDestroyed() || !isAppUrl(contents.getURL())) return false;
  const message: MenuCommandMessage = { command };
  contents.send(shellChannels.menu, message);
  return true;
}
