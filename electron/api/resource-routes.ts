/**
 * The routes of every resource: its special operations (route plugins beside the domain code
 * they call) and the generic list/get/create/update/delete made from its declaration. A
 * declaration names no routes, so resource modules and domain code never import a route file
 * (docs/API.md; the layers are checked by test/layers.test.ts).
 */
import type { FastifyInstance } from 'fastify';
import { registerResource } from './crud.js';
import { registerCapacityRoutes } from './planning/capacity-routes.js';
import { registerExceptionRoutes } from './planning/exception-routes.js';
import { registerHolidayRoutes } from './planning/holiday-routes.js';
import { registerKpiRoutes } from './planning/kpi-routes.js';
import { registerMaterialRoutes } from './planning/material-routes.js';
import { registerPlanRoutes } from './planning/plan-routes.js';
import { registerScheduleRoutes } from './planning/schedule-routes.js';
import { registerSkillRoutes } from './planning/skill-routes.js';
import { registerSplitRoutes } from './planning/split-routes.js';
import { registerPrintRoutes } from './print/print-routes.js';
import type { ResourceModule } from './resource.js';
import { attachmentModule } from './resources/attachment.js';
import { registerAttachmentRoutes } from './resources/attachment-routes.js';
import { boardModule } from './resources/board.js';
import { cardModule } from './resources/card.js';
import { collectionModule } from './resources/collection.js';
import { registerCustomFieldRoutes } from './resources/collection-routes.js';
import { resourceModules } from './resources/index.js';
import { resourceModule, scheduleDeviationModule } from './resources/resource.js';
import { timeTrackingModule } from './resources/time-tracking.js';
import { exceptionHandlingModule } from './resources/exception-handling.js';
import { closedPeriodModule } from './resources/closed-period.js';
import { registerClosedPeriodRoutes } from './time-tracking/period-routes.js';
import { userModule } from './resources/user.js';
import { registerUserRoutes } from './resources/user-routes.js';
import { registerTimeTrackingRoutes } from './time-tracking/routes.js';

type RoutePlugin = (app: FastifyInstance) => void;

/** A resource's special operations, registered just before its generic routes (the order of the OpenAPI document). */
const operations = new Map<ResourceModule, readonly RoutePlugin[]>([
  [boardModule, [registerCapacityRoutes, registerPrintRoutes, registerKpiRoutes]],
  [resourceModule, [registerScheduleRoutes]],
  [scheduleDeviationModule, [registerHolidayRoutes]],
  [userModule, [registerUserRoutes]],
  [collectionModule, [registerPlanRoutes, registerCustomFieldRoutes, registerMaterialRoutes]],
  [cardModule, [registerSplitRoutes, registerSkillRoutes]],
  [attachmentModule, [registerAttachmentRoutes]],
  [timeTrackingModule, [registerTimeTrackingRoutes]],
  [exceptionHandlingModule, [registerExceptionRoutes]],
  [closedPeriodModule, [registerClosedPeriodRoutes]],
]);

export function registerResourceRoutes(app: FastifyInstance): void {
  for (const module of resourceModules) {
    for (const register of operations.get(module) ?? []) register(app);
    registerResource(app, module);
  }
}
