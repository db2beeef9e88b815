/**
 * The screens of the app, in navigation order, with what each will do. Screens not built yet
 * say so plainly instead of showing an empty frame.
 */
import type { MessageKey } from '../i18n/index.js';
import type { ViewName } from '../state/ui.js';

export interface ViewEntry {
  name: ViewName;
  title: string;
  /** The title in the planner's language (renderer/i18n). */
  titleKey: MessageKey;
  /** What the screen is for; shown on screens that are not built yet. */
  purpose: string;
  ready: boolean;
}

export const views: readonly ViewEntry[] = [
  {
    name: 'planboard',
    titleKey: 'nav.planboard',
    title: 'Planboard',
    purpose: 'Plan work across stages and days, with the backlog and capacity beside the board.',
    ready: true,
  },
  { name: 'orders', titleKey: 'nav.orders', title: 'Orders', purpose: 'Customer orders and their order rows.', ready: true },
  { name: 'projects', titleKey: 'nav.projects', title: 'Projects', purpose: 'The projects that orders belong to.', ready: true },
  { name: 'activities', titleKey: 'nav.activities', title: 'Activities', purpose: 'The kinds of work the stages of a board allow.', ready: true },
  {
    name: 'resources',
    titleKey: 'nav.resources',
    title: 'Resources',
    purpose: 'The people, machines and cells that do the work, and the stages they work on.',
    ready: true,
  },
  {
    name: 'time',
    titleKey: 'nav.time',
    title: 'Time',
    purpose: 'Track time with a timer, review the week sheet and export time reports.',
    ready: true,
  },
  {
    name: 'sync',
    titleKey: 'nav.sync',
    title: 'Sync',
    purpose: 'See sync status with the remote instance and resolve conflicts.',
    ready: true,
  },
  { name: 'settings', titleKey: 'nav.settings', title: 'Settings', purpose: 'Connection, account and app preferences.', ready: true },
];
