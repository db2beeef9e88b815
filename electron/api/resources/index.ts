import { registerModules } from '../registry.js';
import type { ResourceModule } from '../resource.js';
import { activityModule } from './activity.js';
import { boardChecklistModule, boardCustomFieldModule, boardModule, boardViewModule, labelModule, statusModule } from './board.js';
import { attachmentModule } from './attachment.js';
import { allCardsModule, cardActivityModule, cardLabelModule, cardModule, cardRelationModule, cardResourceModule } from './card.js';
import { cardChecklistModule, checklistItemModule, checklistModule } from './checklist.js';
import { collectionActivityModule, collectionFollowerModule, collectionLabelModule, collectionModule } from './collection.js';
import { commentModule } from './comment.js';
import { groupModule, groupResourceModule } from './group.js';
import { orderModule } from './order.js';
import { orderRowModule, orderRowSupplyModule } from './order-row.js';
import { exceptionHandlingModule } from './exception-handling.js';
import { automationNoticeModule, automationRuleModule } from './automation-rule.js';
import { projectModule } from './project.js';
import { companyHolidayModule, resourceModule, scheduleDeviationModule } from './resource.js';
import { addressModule, itemModule, relationModule, warehouseModule } from './simple.js';
import { spaceModule } from './space.js';
import { stageActivityModule, stageModule } from './stage.js';
import { payrollSettingModule } from './payroll-setting.js';
import { surchargeRuleModule } from './surcharge-rule.js';
import { timeTrackingModule } from './time-tracking.js';
import { closedPeriodModule } from './closed-period.js';
import { overtimeCorrectionModule } from './overtime-correction.js';
import { userModule } from './user.js';

/** Every resource module, in the order their routes are documented. */
export const resourceModules: readonly ResourceModule[] = [
  // Base data
  boardModule,
  labelModule,
  statusModule,
  boardViewModule,
  boardChecklistModule,
  boardCustomFieldModule,
  stageModule,
  stageActivityModule,
  activityModule,
  resourceModule,
  scheduleDeviationModule,
  companyHolidayModule,
  surchargeRuleModule,
  payrollSettingModule,
  groupModule,
  groupResourceModule,
  userModule,
  spaceModule,
  // Card data
  collectionModule,
  collectionActivityModule,
  collectionLabelModule,
  collectionFollowerModule,
  cardModule,
  allCardsModule,
  cardLabelModule,
  cardResourceModule,
  cardActivityModule,
  cardRelationModule,
  checklistModule,
  cardChecklistModule,
  checklistItemModule,
  commentModule,
  attachmentModule,
  timeTrackingModule,
  closedPeriodModule,
  overtimeCorrectionModule,
  // Order data
  projectModule,
  orderModule,
  orderRowModule,
  orderRowSupplyModule,
  itemModule,
  relationModule,
  warehouseModule,
  addressModule,
  // The exception inbox
  exceptionHandlingModule,
  // Automation rules per board, and their notices
  automationRuleModule,
  automationNoticeModule,
];

registerModules(resourceModules);
