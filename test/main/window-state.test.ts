/**
 * Window position and size, remembered per display and restored only where the planner can
 * reach the window: off-screen positions and vanished displays fall back to the defaults.
 */
import { EventEmitter } from 'node:events';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserWindow, Rectangle, Screen } from 'electron';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  displayKey,
  isReachable,
  parseWindowStateFile,
  restoreWindowState,
  WindowStateKeeper,
  type DisplayArea,
  type WindowStateFile,
} from '../../electron/main/window-state.js';
import { tempDir } from '../helpers/api.js';

vi.mock('electron', () => ({}));

const laptop: DisplayArea = { bounds: { x: 0, y: 0, width: 1920, height: 1080 }, workArea: { x: 0, y: 0, width: 1920, height: 1040 } };
const monitor: DisplayArea = {
  bounds: { x: 1920, y: 0, width: 2560, height: 1440 },
  workArea: { x: 1920, y: 25, width: 2560, height: 1415 },
};

function saved(display: DisplayArea, bounds: Rectangle, maximized = false): WindowStateFile {
  return { last: displayKey(display), displays: { [displayKey(display)]: { bounds, maximized } } };
}

describe('restoring the window', () => {
  it('puts it back where it was on the display it was on', () => {
    const bounds = { x: 2100, y: 100, width: 1400, height: 900 };
    expect(restoreWindowState(saved(monitor, bounds, true), [laptop, monitor])).toEqual({ bounds, maximized: true });
  });

  it('keeps one position per display and prefers the last display used', () => {
    const file: WindowStateFile = {
      last: displayKey(monitor),
      displays: {
        [displayKey(laptop)]: { bounds: { x: 10, y: 10, width: 1000, height: 700 }, maximized: false },
        [displayKey(monitor)]: { bounds: { x: 2000, y: 50, width: 1600, height: 1000 }, maximized: false },
      },
    };
    expect(restoreWindowState(file, [laptop, monitor])?.bounds.x).toBe(2000);
    // The monitor is unplugged: the laptop's own position is used.
    expect(restoreWindowState(file, [laptop])?.bounds).toEqual({ x: 10, y: 10, width: 1000, height: 700 });
  });

  it('rejects a position on a display that is gone', () => {
    expect(restoreWindowState(saved(monitor, { x: 2100, y: 100, width: 1400, height: 900 }), [laptop])).toBeUndefined();
  });

  it.each([
    ['left of the screen', { x: -1900, y: 100, width: 1200, height: 800 }],
    ['right of the screen', { x: 1880, y: 100, width: 1200, height: 800 }],
    ['below the screen', { x: 100, y: 1030, width: 1200, height: 800 }],
    ['with its title bar above the screen', { x: 100, y: -300, width: 1200, height: 800 }],
    ['far away', { x: 50_000, y: 50_000, width: 1200, height: 800 }],
  ])('rejects a window %s', (_where, bounds) => {
    expect(restoreWindowState(saved(laptop, bounds), [laptop, monitor])).toBeUndefined();
  });

  it('accepts a window partly off the side as long as its title bar can be grabbed', () => {
    const bounds = { x: -600, y: 200, width: 1200, height: 800 };
    expect(restoreWindowState(saved(laptop, bounds), [laptop])?.bounds).toEqual(bounds);
  });

  it('shrinks a window larger than the work area to fit', () => {
    const restored = restoreWindowState(saved(laptop, { x: 0, y: 0, width: 3000, height: 2000 }), [laptop]);
    expect(restored?.bounds).toEqual({ x: 0, y: 0, width: 1920, height: 1040 });
  });

  it('never restores a window smaller than the minimum size', () => {
    const restored = restoreWindowState(saved(laptop, { x: 100, y: 100, width: 50, height: 20 }), [laptop]);
    expect(restored?.bounds).toEqual({ x: 100, y: 100, width: 800, height: 500 });
  });

  it('uses the defaults with nothing saved', () => {
    expect(restoreWindowState({ displays: {} }, [laptop])).toBeUndefined();
  });

  it('checks reachability against the work area (not the taskbar or menu bar)', () => {
    expect(isReachable({ x: 2000, y: 10, width: 800, height: 600 }, monitor.workArea)).toBe(false);
    expect(isReachable({ x: 2000, y: 25, width: 800, height: 600 }, monitor.workArea)).toBe(true);
  });
});

describe('the saved file', () => {
  it('drops what is malformed and keeps the rest', () => {
    const file = parseWindowStateFile({
      last: 'a',
      displays: {
        a: { bounds: { x: 1, y: 2, width: 800, height: 600 }, maximized: true },
        b: { bounds: { x: 'left', y: 2, width: 800, height: 600 } },
        c: { bounds: { x: 1, y: 2, width: -5, height: 600 } },
        d: { bounds: { x: Infinity, y: 2, width: 800, height: 600 } },
        e: null,
      },
    });
    expect(file).toEqual({ last: 'a', displays: { a: { bounds: { x: 1, y: 2, width: 800, height: 600 }, maximized: true } } });
    expect(parseWindowStateFile('nonsense')).toEqual({ displays: {} });
    expect(parseWindowStateFile(null)).toEqual({ displays: {} });
  });
});

describe('keeping the state while the window lives', () => {
  let folder: string;
  let path: string;

  class FakeWindow extends EventEmitter {
    normal: Rectangle = { x: 2100, y: 100, width: 1400, height: 900 };
    maximized = false;
    minimized = false;
    fullScreen = false;
    isDestroyed = () => false;
    isMinimized = () => this.minimized;
    isFullScreen = () => this.fullScreen;
    isMaximized = () => this.maximized;
    getNormalBounds = () => this.normal;
  }

  const screen = {
    getAllDisplays: () => [laptop, monitor],
    getDisplayMatching: (rect: Rectangle) => (rect.x >= 1920 ? monitor : laptop),
  } as unknown as Screen;

  beforeEach(() => {
    folder = tempDir();
    path = join(folder, 'window-state.json');
    vi.useFakeTimers();
  });

  afterEach(() => {
    vi.useRealTimers();
    rmSync(folder, { recursive: true, force: true });
  });

  it('saves the bounds under the display the window is on when it closes, and restores them next time', () => {
    const keeper = new WindowStateKeeper(path, screen);
    const window = new FakeWindow();
    keeper.track(window as unknown as BrowserWindow);
    window.maximized = true;
    window.emit('close');
    const stored = JSON.parse(readFileSync(path, 'utf8')) as WindowStateFile;
    expect(stored.last).toBe(displayKey(monitor));
    expect(stored.displays[displayKey(monitor)]).toEqual({ bounds: window.normal, maximized: true });
    expect(new WindowStateKeeper(path, screen).restore()).toEqual({ bounds: window.normal, maximized: true });
  });

  it('saves once moves and resizes settle', () => {
    const keeper = new WindowStateKeeper(path, screen);
    const window = new FakeWindow();
    keeper.track(window as unknown as BrowserWindow, 500);
    window.emit('move');
    window.normal = { x: 100, y: 100, width: 1000, height: 700 };
    window.emit('resize');
    vi.advanceTimersByTime(499);
    expect(() => readFileSync(path)).toThrow();
    vi.advanceTimersByTime(1);
    const stored = JSON.parse(readFileSync(path, 'utf8')) as WindowStateFile;
    expect(stored.displays[displayKey(laptop)]!.bounds).toEqual({ x: 100, y: 100, width: 1000, height: 700 });
  });

  it('keeps the positions on other displays when saving one', () => {
    writeFileSync(path, JSON.stringify(saved(laptop, { x: 5, y: 5, width: 900, height: 600 })));
    const keeper = new WindowStateKeeper(path, screen);
    const window = new FakeWindow();
    keeper.save(window as unknown as BrowserWindow);
    const stored = JSON.parse(readFileSync(path, 'utf8')) as WindowStateFile;
    expect(Object.keys(stored.displays).sort()).toEqual([displayKey(laptop), displayKey(monitor)].sort());
  });

  it('does not save a minimized or full-screen window', () => {
    const keeper = new WindowStateKeeper(path, screen);
    const window = new FakeWindow();
    window.minimized = true;
    keeper.save(window as unknown as BrowserWindow);
    window.minimized = false;
    window.fullScreen = true;
    keeper.save(window as unknown as BrowserWindow);
    expect(() => readFileSync(path)).toThrow();
  });

  it('starts from the defaults when the file is damaged', () => {
    writeFileSync(path, '{ not json');
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(new WindowStateKeeper(path, screen).restore()).toBeUndefined();
    vi.mocked(console.warn).mockRestore();
  });
});
