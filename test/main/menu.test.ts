/**
 * The application menu: its roles, its accelerators (the same keys as the page's shortcuts),
 * its labels in each language, and where its commands go.
 */
import type { BaseWindow, MenuItemConstructorOptions } from 'electron';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { buildMenuTemplate, sendMenuCommand, type MenuActions } from '../../electron/main/menu.js';
import { translator } from '../../electron/main/messages.js';
import { menuAccelerators, shellChannels } from '../../shared/ipc.js';

const fake = vi.hoisted(() => {
  class FakeBrowserWindow {
    static all: FakeBrowserWindow[] = [];
    static focused: FakeBrowserWindow | null = null;
    static getAllWindows = () => FakeBrowserWindow.all;
    static getFocusedWindow = () => FakeBrowserWindow.focused;
    url = 'app://planner/index.html';
    readonly webContents = { send: vi.fn(), isDestroyed: () => false, getURL: () => this.url };
    isDestroyed = () => false;
  }
  return { FakeBrowserWindow };
});

vi.mock('electron', () => ({ BrowserWindow: fake.FakeBrowserWindow, Menu: {}, protocol: {} }));

function actions() {
  return {
    command: vi.fn<MenuActions['command']>(),
    backup: vi.fn<MenuActions['backup']>(),
    restore: vi.fn<MenuActions['restore']>(),
    openDataFolder: vi.fn<MenuActions['openDataFolder']>(),
    openLogs: vi.fn<MenuActions['openLogs']>(),
  } satisfies MenuActions;
}

function template(options: { platform?: NodeJS.Platform; isDev?: boolean; language?: 'en' | 'nl'; actions?: MenuActions } = {}) {
  return buildMenuTemplate({
    platform: options.platform ?? 'linux',
    isDev: options.isDev ?? false,
    t: translator(options.language ?? 'en'),
    actions: options.actions ?? actions(),
  });
}

function items(menu: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
  return menu.flatMap((item) => [item, ...(Array.isArray(item.submenu) ? items(item.submenu) : [])]);
}

function find(menu: MenuItemConstructorOptions[], test: (item: MenuItemConstructorOptions) => boolean): MenuItemConstructorOptions {
  const found = items(menu).find(test);
  if (!found) throw new Error('no such menu item');
  return found;
}

function submenu(menu: MenuItemConstructorOptions[], label: string): MenuItemConstructorOptions[] {
  const top = menu.find((item) => item.label === label);
  return (top?.submenu ?? []) as MenuItemConstructorOptions[];
}

const click = (item: MenuItemConstructorOptions, window?: unknown) =>
  (item.click as (item: unknown, window: unknown, event: unknown) => void)({}, window, {});

describe('the menu on Windows and Linux', () => {
  const menu = template();

  it('has File, Edit, View, Window and Help, in that order', () => {
    expect(menu.map((item) => item.label)).toEqual(['File', 'Edit', 'View', 'Window', 'Help']);
  });

  it('File has new collection, export time report, print the plan, backup, restore, settings and quit', () => {
    const file = submenu(menu, 'File').filter((item) => item.type !== 'separator');
    expect(file.map((item) => item.label)).toEqual([
      'New collection',
      'Export time report…',
      'Print the plan…',
      'Back up…',
      'Restore from backup…',
      'Settings…',
      'Quit Planner',
    ]);
    expect(file.at(-1)).toMatchObject({ role: 'quit', accelerator: 'CmdOrCtrl+Q' });
  });

  it('Edit has undo and redo as app commands, then the text roles', () => {
    const edit = submenu(menu, 'Edit').filter((item) => item.type !== 'separator');
    expect(edit.map((item) => item.id ?? item.role)).toEqual(['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll']);
    // Not the `undo` role: that would undo text only, never a move on the board.
    expect(edit[0]!.role).toBeUndefined();
    expect(edit[1]!.role).toBeUndefined();
  });

  it('View has zoom and full screen, and no reload or developer tools in a packaged app', () => {
    const roles = submenu(menu, 'View').map((item) => item.role ?? item.type);
    expect(roles).toEqual(['resetZoom', 'zoomIn', 'zoomOut', 'separator', 'togglefullscreen']);
  });

  it('View has reload and the developer tools in development', () => {
    const roles = submenu(template({ isDev: true }), 'View').map((item) => item.role);
    expect(roles.slice(0, 3)).toEqual(['reload', 'forceReload', 'toggleDevTools']);
  });

  it('Window and Help use the window and help roles; Help has about, data folder and logs', () => {
    expect(menu[3]).toMatchObject({ role: 'window' });
    expect(submenu(menu, 'Window').map((item) => item.role)).toEqual(['minimize', 'zoom', 'close']);
    expect(menu[4]).toMatchObject({ role: 'help' });
    const help = submenu(menu, 'Help').filter((item) => item.type !== 'separator');
    expect(help.map((item) => item.role ?? item.id)).toEqual(['about', 'open-data-folder', 'open-logs']);
  });

  it('gives every command the same key as the in-app shortcut', () => {
    for (const [command, accelerator] of Object.entries(menuAccelerators)) {
      expect(find(menu, (item) => item.id === command).accelerator).toBe(accelerator);
    }
    expect(menuAccelerators).toMatchObject({ undo: 'CmdOrCtrl+Z', redo: 'CmdOrCtrl+Shift+Z', 'new-collection': 'CmdOrCtrl+N' });
  });

  it('uses no accelerator twice', () => {
    const keys = items(menu).flatMap((item) => (typeof item.accelerator === 'string' ? [item.accelerator] : []));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('labels every item that is not a separator', () => {
    expect(items(menu).filter((item) => item.type !== 'separator' && !item.label)).toEqual([]);
  });
});

describe('the menu on macOS', () => {
  const menu = template({ platform: 'darwin' });

  it('starts with the app menu holding about, settings, services, hide and quit', () => {
    expect(menu.map((item) => item.label)).toEqual(['Planner', 'File', 'Edit', 'View', 'Window', 'Help']);
    const roles = submenu(menu, 'Planner').map((item) => item.role ?? item.id ?? item.type);
    expect(roles).toEqual([
      'about',
      'separator',
      'open-settings',
      'separator',
      'services',
      'separator',
      'hide',
      'hideOthers',
      'unhide',
      'separator',
      'quit',
    ]);
  });

  it('closes the window from File instead of quitting, and has no second settings item', () => {
    const file = submenu(menu, 'File');
    expect(file.at(-1)).toMatchObject({ role: 'close' });
    expect(file.some((item) => item.role === 'quit' || item.id === 'open-settings')).toBe(false);
    expect(submenu(menu, 'Window').map((item) => item.role ?? item.type)).toEqual(['minimize', 'zoom', 'separator', 'front']);
  });
});

describe('the menu in Dutch', () => {
  const english = items(template());
  const dutch = items(template({ language: 'nl' }));

  it('translates the menus and the items', () => {
    expect(template({ language: 'nl' }).map((item) => item.label)).toEqual(['Bestand', 'Bewerken', 'Beeld', 'Venster', 'Help']);
    expect(find(dutch, (item) => item.id === 'undo').label).toBe('Ongedaan maken');
    expect(find(dutch, (item) => item.id === 'new-collection').label).toBe('Nieuwe verzameling');
    expect(find(dutch, (item) => item.id === 'backup').label).toBe('Back-up maken…');
    expect(find(dutch, (item) => item.role === 'quit').label).toBe('Planner afsluiten');
  });

  it('has the same items, roles and keys as in English', () => {
    const shape = (list: MenuItemConstructorOptions[]) => list.map((item) => [item.id, item.role, item.type, item.accelerator]);
    expect(shape(dutch)).toEqual(shape(english));
    expect(
      dutch.filter((item, i) => item.label && item.label === english[i]!.label && item.label !== 'Help').map((item) => item.label),
    ).toEqual([]);
  });
});

describe('menu clicks', () => {
  it('send page commands with the window they were chosen in', () => {
    const heard = actions();
    const menu = template({ actions: heard });
    const window = { id: 1 };
    click(
      find(menu, (item) => item.id === 'undo'),
      window,
    );
    click(
      find(menu, (item) => item.id === 'redo'),
      window,
    );
    click(
      find(menu, (item) => item.id === 'new-collection'),
      window,
    );
    click(
      find(menu, (item) => item.id === 'export-time-report'),
      window,
    );
    expect(heard.command.mock.calls).toEqual([
      ['undo', window],
      ['redo', window],
      ['new-collection', window],
      ['export-time-report', window],
    ]);
  });

  it('run main’s own actions for backup, restore, the data folder and the logs', () => {
    const heard = actions();
    const menu = template({ actions: heard });
    for (const id of ['backup', 'restore', 'open-data-folder', 'open-logs']) click(find(menu, (item) => item.id === id));
    expect(heard.backup).toHaveBeenCalledTimes(1);
    expect(heard.restore).toHaveBeenCalledTimes(1);
    expect(heard.openDataFolder).toHaveBeenCalledTimes(1);
    expect(heard.openLogs).toHaveBeenCalledTimes(1);
    expect(heard.command).not.toHaveBeenCalled();
  });
});

describe('sending a menu command to the page', () => {
  beforeEach(() => {
    fake.FakeBrowserWindow.all = [new fake.FakeBrowserWindow(), new fake.FakeBrowserWindow()];
    fake.FakeBrowserWindow.focused = null;
  });

  it('goes to the window the item was chosen in, on the menu channel', () => {
    const [first, second] = fake.FakeBrowserWindow.all;
    expect(sendMenuCommand('undo', second as unknown as BaseWindow)).toBe(true);
    expect(second!.webContents.send).toHaveBeenCalledWith(shellChannels.menu, { command: 'undo' });
    expect(shellChannels.menu).toBe('planner:menu');
    expect(first!.webContents.send).not.toHaveBeenCalled();
  });

  it('goes to the focused window when none was given (macOS, no window focused in the menu)', () => {
    const [, second] = fake.FakeBrowserWindow.all;
    fake.FakeBrowserWindow.focused = second!;
    sendMenuCommand('new-collection', undefined);
    expect(second!.webContents.send).toHaveBeenCalledWith('planner:menu', { command: 'new-collection' });
  });

  it('is not sent to a window showing anything but the app', () => {
    const [first] = fake.FakeBrowserWindow.all;
    first!.url = 'https://evil.example/';
    expect(sendMenuCommand('redo', first as unknown as BaseWindow)).toBe(false);
    expect(first!.webContents.send).not.toHaveBeenCalled();
  });

  it('does nothing with no window open', () => {
    fake.FakeBrowserWindow.all = [];
    expect(sendMenuCommand('undo', undefined)).toBe(false);
  });
});
