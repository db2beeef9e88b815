/**
 * Every resource the Planning API stores, declared once. The API turns each declaration into
 * routes, sync into tables it can merge into, the renderer into typed hooks, the docs into an
 * OpenAPI schema.
 */
import type { ResourceSpec } from '../fields.js';
import { activitySpec } from './activity.js';
import { addressSpec } from './address.js';
import { attachmentSpec } from './attachment.js';
import { boardChecklistSpec, boardCustomFieldSpec, boardSpec, boardViewSpec, labelSpec, statusSpec } from './board.js';
import {
  cardActivitySpec,
  cardLabelSpec,
  cardRelationSpec,
  cardResourceSpec,
  cardSpec,
  collectionFollowerSpec,
  collectionLabelSpec,
} from './card.js';
import { checklistItemSpec, checklistSpec } from './checklist.js';
import { collectionActivitySpec, collectionSpec } from './collection.js';
import { commentSpec } from './comment.js';
import { companyHolidaySpec } from './company-holiday.js';
import { exceptionHandlingSpec } from './exception-handling.js';
import { automationNoticeSpec, automationRuleSpec } from './automation-rule.js';
import { closedPeriodSpec } from './closed-period.js';
import { overtimeCorrectionSpec } from './overtime-correction.js';
import { groupResourceSpec, groupSpec } from './group.js';
import { itemSpec } from './item.js';
import { orderSpec } from './order.js';
import { orderRowSpec, orderRowSupplySpec } from './order-row.js';
import { projectSpec } from './project.js';
import { relationSpec } from './relation.js';
import { resourceSpec, scheduleDeviationSpec } from './resource.js';
import { spaceSpec } from './space.js';
import { stageActivitySpec, stageSpec } from './stage.js';
import { payrollSettingSpec } from './payroll-setting.js';
import { surchargeRuleSpec } from './surcharge-rule.js';
import { timeTrackingSpec } from './time-tracking.js';
import { userSpec } from './user.js';
import { warehouseSpec } from './warehouse.js';

export { projectSpec, type Project, type ProjectInput } from './project.js';

export const resourceSpecs = {
  project: projectSpec,
  order: orderSpec,
  order_row: orderRowSpec,
  order_row_supply: orderRowSupplySpec,
  item: itemSpec,
  relation: relationSpec,
  warehouse: warehouseSpec,
  address: addressSpec,
  board: boardSpec,
  label: labelSpec,
  status: statusSpec,
  board_view: boardViewSpec,
  board_checklist: boardChecklistSpec,
  board_custom_field: boardCustomFieldSpec,
  stage: stageSpec,
  stage_activity: stageActivitySpec,
  activity: activitySpec,
  resource: resourceSpec,
  schedule_deviation: scheduleDeviationSpec,
  company_holiday: companyHolidaySpec,
  surcharge_rule: surchargeRuleSpec,
  payroll_setting: payrollSettingSpec,
  group: groupSpec,
  group_resource: groupResourceSpec,
  user: userSpec,
  space: spaceSpec,
  collection: collectionSpec,
  collection_activity: collectionActivitySpec,
  collection_label: collectionLabelSpec,
  collection_follower: collectionFollowerSpec,
  card: cardSpec,
  card_label: cardLabelSpec,
  card_resource: cardResourceSpec,
  card_activity: cardActivitySpec,
  card_relation: cardRelationSpec,
  checklist: checklistSpec,
  checklist_item: checklistItemSpec,
  comment: commentSpec,
  attachment: attachmentSpec,
  time_tracking: timeTrackingSpec,
  exception_handling: exceptionHandlingSpec,
  closed_period: closedPeriodSpec,
  overtime_correction: overtimeCorrectionSpec,
  automation_rule: automationRuleSpec,
  automation_notice: automationNoticeSpec,
} as const satisfies Record<string, ResourceSpec>;

export type ResourceName = keyof typeof resourceSpecs;

// Records of one instance, not in resourceSpecs because they never sync: webhooks with their
// delivery log, and OAuth clients (which live in the system database).
export { webhookDeliverySpec, webhookEventTypes, webhookSpec, type Webhook, type WebhookDelivery, type WebhookInput } from './webhook.js';
export { oauthClientSpec, type OAuthClient, type OAuthClientInput } from './oauth-client.js';
// The KPI figures of closed periods, which each environment keeps for itself (docs/API.md "KPIs").
export { kpiSnapshotSpec, type KpiSnapshot } from './kpi-snapshot.js';
