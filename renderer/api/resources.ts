/**
 * Where each resource lives in the API, and the record and input types the renderer uses
 * for it, derived from the declarations in `shared/resources` so they cannot drift.
 *
 * Only resources with a collection path of their own are named here. A board's labels and
 * statuses live under it (`/v1/board/{id}/label`) and the renderer writes them inline with
 * their board (docs/API.md, deep insertion), so they need no path; their types come straight
 * from `shared/resources/board.ts`.
 */
import type { InputOf, RecordOf } from '../../shared/fields.js';
import type { activitySpec } from '../../shared/resources/activity.js';
import type { addressSpec } from '../../shared/resources/address.js';
import type { automationRuleSpec } from '../../shared/resources/automation-rule.js';
import type { boardSpec } from '../../shared/resources/board.js';
import type { collectionSpec } from '../../shared/resources/collection.js';
import type { companyHolidaySpec } from '../../shared/resources/company-holiday.js';
import type { itemSpec } from '../../shared/resources/item.js';
import type { orderSpec } from '../../shared/resources/order.js';
import type { projectSpec } from '../../shared/resources/project.js';
import type { relationSpec } from '../../shared/resources/relation.js';
import type { resourceSpec } from '../../shared/resources/resource.js';
import type { stageSpec } from '../../shared/resources/stage.js';
import type { overtimeCorrectionSpec } from '../../shared/resources/overtime-correction.js';
import type { payrollSettingSpec } from '../../shared/resources/payroll-setting.js';
import type { surchargeRuleSpec } from '../../shared/resources/surcharge-rule.js';
import type { timeTrackingSpec } from '../../shared/resources/time-tracking.js';
import type { userSpec } from '../../shared/resources/user.js';
import type { warehouseSpec } from '../../shared/resources/warehouse.js';

interface RendererResources {
  project: typeof projectSpec;
  board: typeof boardSpec;
  stage: typeof stageSpec;
  activity: typeof activitySpec;
  resource: typeof resourceSpec;
  order: typeof orderSpec;
  relation: typeof relationSpec;
  warehouse: typeof warehouseSpec;
  address: typeof addressSpec;
  item: typeof itemSpec;
  collection: typeof collectionSpec;
  time_tracking: typeof timeTrackingSpec;
  user: typeof userSpec;
  company_holiday: typeof companyHolidaySpec;
  surcharge_rule: typeof surchargeRuleSpec;
  payroll_setting: typeof payrollSettingSpec;
  overtime_correction: typeof overtimeCorrectionSpec;
  automation_rule: typeof automationRuleSpec;
}

/** A resource by the name its path and its change events carry. */
export type ResourceName = keyof RendererResources;

export function resourcePath(resource: ResourceName): string {
  return `/v1/${resource}`;
}

export type RecordFor<R extends ResourceName> = RecordOf<RendererResources[R]>;
export type InputFor<R extends ResourceName> = InputOf<RendererResources[R]>;

/**
 * What a form sends. Besides the input fields it may send `null`: the API clears a nullable
 * field, and answers a null required field with a 422 "is required" — which is how a form
 * shows that a name it has no text for is missing, beside the input (the API stores '' as is).
 */
export type WriteBody<R extends ResourceName> = { [K in keyof InputFor<R>]?: InputFor<R>[K] | null };
