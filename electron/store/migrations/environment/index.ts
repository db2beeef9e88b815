import type { Migration } from '../../database.js';
import { changeLog } from './0001-change-log.js';
import { project } from './0002-project.js';
import { orderData } from './0003-order-data.js';
import { baseData } from './0004-base-data.js';
import { cardData } from './0005-card-data.js';
import { sync } from './0006-sync.js';
import { oauth } from './0007-oauth.js';
import { webhooks } from './0008-webhooks.js';
import { timeTracking } from './0009-time-tracking.js';
import { referenceFields } from './0010-reference-fields.js';
import { syncFiles } from './0011-sync-files.js';
import { planIds } from './0012-plan-ids.js';
import { relationKeys } from './0013-relation-keys.js';
import { replicaOwners } from './0014-replica-owners.js';
import { cardVisibilityAll } from './0015-card-visibility-all.js';
import { syncUnknown } from './0016-sync-unknown.js';
import { syncOverruled } from './0017-sync-overruled.js';
import { timeEntriesWithoutCard } from './0018-time-entries-without-card.js';
import { commands } from './0019-commands.js';
import { syncGroups } from './0020-sync-groups.js';
import { timeEntriesByStart } from './0021-time-entries-by-start.js';
import { cardsByStageRank } from './0022-cards-by-stage-rank.js';
import { keptWriter } from './0023-kept-writer.js';
import { companyHolidays } from './0024-company-holidays.js';
import { orderRowScrapped } from './0025-order-row-scrapped.js';
import { exceptionHandling } from './0026-exception-handling.js';
import { hourCodes } from './0027-hour-codes.js';
import { kpiSnapshots } from './0028-kpi-snapshots.js';
import { stageSetup } from './0029-stage-setup.js';
import { closedPeriods } from './0030-closed-periods.js';
import { notifiedExceptions } from './0031-notified-exceptions.js';
import { scenarios } from './0032-scenarios.js';
import { payrollFiles } from './0033-payroll-files.js';
import { syncPlanFindings } from './0034-sync-plan-findings.js';
import { floorKiosks } from './0035-floor-kiosks.js';
import { overtimeBalance } from './0036-overtime-balance.js';
import { skillsAndCrews } from './0037-skills-and-crews.js';
import { secondShift } from './0038-second-shift.js';
import { automationRules } from './0039-automation-rules.js';
import { planFindingsByNotice } from './0040-plan-findings-by-notice.js';

/** Migrations of each environment's database (`env-<id>.sqlite`), in order. */
export const environmentMigrations: readonly Migration[] = [
  changeLog,
  project,
  orderData,
  baseData,
  cardData,
  sync,
  oauth,
  webhooks,
  timeTracking,
  referenceFields,
  syncFiles,
  planIds,
  relationKeys,
  replicaOwners,
  cardVisibilityAll,
  syncUnknown,
  syncOverruled,
  timeEntriesWithoutCard,
  commands,
  syncGroups,
  timeEntriesByStart,
  cardsByStageRank,
  keptWriter,
  companyHolidays,
  orderRowScrapped,
  exceptionHandling,
  hourCodes,
  kpiSnapshots,
  stageSetup,
  closedPeriods,
  notifiedExceptions,
  scenarios,
  payrollFiles,
  syncPlanFindings,
  floorKiosks,
  overtimeBalance,
  skillsAndCrews,
  secondShift,
  automationRules,
  planFindingsByNotice,
];
