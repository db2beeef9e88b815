/**
 * Where the window was, per display: `window-state.json` in userData keeps the last size and
 * position used on each display (keyed by the display's bounds, which are stable across
 * launches where display ids are not). Before restoring, the saved bounds are checked against
 * the displays there are now: a window saved on a monitor that is gone, or moved off-screen,
 * opens at the default size in the middle of the primary display instead of out of reach.
 */
import type { BrowserWindow, Rectangle, Screen } from 'electron';
import { readJsonFile, writeJsonFile } from '../host/json-file.js';

export interface DisplayArea {
  bounds: Rectangle;
  workArea: Rectangle;
}

export interface SavedWindow {
  bounds: Rectangle;
  maximized: boolean;
}

export interface WindowStateFile {
  /** The display the window was last on. */
  last?: string;
  displays: Record<string, SavedWindow>;
}

export interface RestoredWindow {
  bounds: Rectangle;
  maximized: boolean;
}

/** How much of the window must be on a work area to count as reachable: the title bar, mostly. */
const minVisibleWidth = 120;
const minVisibleHeight = 40;
export const minWindowSize = { width: 800, height: 500 } as const;

export function displayKey(display: Pick<DisplayArea, 'bounds'>): string {
  const { x, y, width, height } = display.bounds;
  return `${x},${y},${width}x${height}`;
}

function isRectangle(value: unknown): value is Rectangle {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  return ['x', 'y', 'width', 'height'].every((k) => typeof r[k] === 'number' && Number.isFinite(r[k]) && Math.abs(r[k]) < 1e6);
}

/** The saved file, with anything malformed left out. */
export function parseWindowStateFile(value: unknown): WindowStateFile {
  const file: WindowStateFile = { displays: {} };
  if (typeof value !== 'object' || value === null) return file;
  const raw = value as { last?: unknown; displays?: unknown };
  if (typeof raw.last === 'string') file.last = raw.last;
  if (typeof raw.displays === 'object' && raw.displays !== null) {
    for (const [key, saved] of Object.entries(raw.displays as Record<string, unknown>)) {
      const s = saved as { bounds?: unknown; maximized?: unknown } | null;
      if (s && isRectangle(s.bounds) && s.bounds.width > 0 && s.bounds.height > 0) {
        file.displays[key] = { bounds: s.bounds, maximized: s.maximized === true };
      }
    }
  }
  return file;
}

/**
 * Whether a window at `bounds` can be reached on `workArea`: its top strip (where the title
 * bar is, the one part the planner can drag it by) overlaps the work area enough.
 */
export function isReachable(bounds: Rectangle, workArea: Rectangle): boolean {
  const left = Math.max(bounds.x, workArea.x);
  const right = Math.min(bounds.x + bounds.width, workArea.x + workArea.width);
  const titleBarInside = bounds.y >= workArea.y && bounds.y + minVisibleHeight <= workArea.y + workArea.height;
  return titleBarInside && right - left >= minVisibleWidth;
}

/**
 * The bounds to open with, or undefined for the defaults. The last display is preferred; a
 * display seen before stands in when the last one is gone. A saved size larger than the work
 * area now (a smaller resolution) is shrunk to fit rather than thrown away.
 */
export function restoreWindowState(file: WindowStateFile, displays: readonly DisplayArea[]): RestoredWindow | undefined {
  const present = new Map(displays.map((display) => [displayKey(display), display]));
  const keys = [...(file.last ? [file.last] : []), ...Object.keys(file.displays).filter((key) => key !== file.last)];
  for (const key of keys) {
    const saved = file.displays[key];
    const display = present.get(key);
    if (!saved || !display) continue;
    const { workArea } = display;
    const bounds = {
      x: Math.round(saved.bounds.x),
      y: Math.round(saved.bounds.y),
      width: Math.round(Math.min(Math.max(saved.bounds.width, minWindowSize.width), workArea.width)),
      height: Math.round(Math.min(Math.max(saved.bounds.height, minWindowSize.height), workArea.height)),
    };
    if (isReachable(bounds, workArea)) return { bounds, maximized: saved.maximized };
  }
  return undefined;
}

type ScreenLike = Pick<Screen, 'getAllDisplays' | 'getDisplayMatching'>;

/** Reads the saved state for a new window and keeps it up to date while the window lives. */
export class WindowStateKeeper {
  private file: WindowStateFile;

  constructor(
    private readonly path: string,
    private readonly screen: ScreenLike,
  ) {
    this.file = parseWindowStateFile(readJsonFile(path));
  }

  restore(): RestoredWindow | undefined {
    return restoreWindowState(this.file, this.screen.getAllDisplays());
  }

  /** Saves after moves and resizes settle, and at once when the window closes. */
  track(window: BrowserWindow, settleMs = 500): void {
    let timer: NodeJS.Timeout | undefined;
    const later = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => this.save(window), settleMs);
    };
    for (const event of ['resize', 'move', 'maximize', 'unmaximize'] as const) window.on(event as 'resize', later);
    window.on('close', () => {
      if (timer) clearTimeout(timer);
      this.save(window);
    });
  }

  save(window: BrowserWindow): void {
    if (window.isDestroyed() || window.isMinimized() || window.isFullScreen()) return;
    // The normal bounds, so a maximized window comes back maximized over the size it had.
    const bounds = window.getNormalBounds();
    const key = displayKey(this.screen.getDisplayMatching(bounds));
    this.file = { last: key, displays: { ...this.file.displays, [key]: { bounds, maximized: window.isMaximized() } } };
    try {
      writeJsonFile(this.path, this.file);
    } catch (error) {
      console.warn('Could not save the window position:', error);
    }
  }
}
