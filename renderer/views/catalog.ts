/**
 * The screens of the app, in navigation order, with what each will do. Screens not built yet
 * say so plainly instead of showing an empty frame.
 */
import type { MessageKey } from '../i18n/index.js';
import type { ViewName } from '../state/ui.js';

export interface ViewEntry {
  name: ViewName;
  /** The title in the planner's language (renderer/i18n). */
  titleKey: MessageKey;
  /** What the screen is for; shown on screens that are not built yet. */
  purposeKey: MessageKey;
  ready: boolean;
}

export const views: readonly ViewEntry[] = [
  { name: 'planboard', titleKey: 'nav.planboard', purposeKey: 'nav.purpose.planboard', ready: true },
  { name: 'exceptions', titleKey: 'nav.exceptions', purposeKey: 'nav.purpose.exceptions', ready: true },
  { name: 'kpi', titleKey: 'nav.kpi', purposeKey: 'nav.purpose.kpi', ready: true },
  { name: 'orders', titleKey: 'nav.orders', purposeKey: 'nav.purpose.orders', ready: true },
  { name: 'projects', titleKey: 'nav.projects', purposeKey: 'nav.purpose.projects', ready: true },
  { name: 'activities', titleKey: 'nav.activities', purposeKey: 'nav.purpose.activities', ready: true },
  { name: 'resources', titleKey: 'nav.resources', purposeKey: 'nav.purpose.resources', ready: true },
  { name: 'time', titleKey: 'nav.time', purposeKey: 'nav.purpose.time', ready: true },
  { name: 'sync', titleKey: 'nav.sync', purposeKey: 'nav.purpose.sync', ready: true },
  { name: 'settings', titleKey: 'nav.settings', purposeKey: 'nav.purpose.settings', ready: true },
];
