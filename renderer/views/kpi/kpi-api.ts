/**
 * The KPI screen's reads (docs/API.md "KPIs"): a board's weekly figures over the last 26 weeks,
 * from GET /v1/kpi, and the same figures as an Excel workbook (`format=xlsx`) saved where the
 * planner wants it, as the time screen saves its reports.
 */
import { useQuery } from '@tanstack/react-query';
import { addDays, bucketStart, today } from '../../../shared/dates.js';
import type { KpiAnswer } from '../../../shared/kpi.js';
import { send, sendRequest } from '../../api/client.js';
import { kpiKey } from '../../api/hooks.js';
import { useApi } from '../../api/provider.js';
import { exportFileFrom, saveExportFile, type SaveOutcome } from '../time/export-file.js';
import type { Transport } from '../../api/transport-types.js';

/** How many weeks the screen shows: half a year, the owner's look back (issue 43). */
export const kpiWeeks = 26;

/** The last 26 ISO weeks, this one included: from the Monday 25 weeks before this week's to today. */
export function kpiRange(day: string = today()): { from: string; to: string } {
  return { from: addDays(bucketStart(day, 'week'), -7 * (kpiWeeks - 1)), to: day };
}

const kpiQuery = (boardId: string, range: { from: string; to: string }) => ({
  board_id: boardId,
  from: range.from,
  to: range.to,
  time_frame: 'week',
});

export function useKpis(boardId: string | null, range: { from: string; to: string }) {
  const { transport } = useApi();
  return useQuery({
    queryKey: [...kpiKey, boardId, range.from, range.to],
    queryFn: () => send<KpiAnswer>(transport, { method: 'GET', path: '/v1/kpi', query: kpiQuery(boardId!, range) }),
    enabled: boardId !== null,
  });
}

/** The workbook of the same figures, saved through the desktop's dialog or as a download. */
export async function saveKpiWorkbook(transport: Transport, boardId: string, range: { from: string; to: string }): Promise<SaveOutcome> {
  const response = await sendRequest(transport, { method: 'GET', path: '/v1/kpi', query: { ...kpiQuery(boardId, range), format: 'xlsx' } });
  return saveExportFile(exportFileFrom(response, 'xlsx', `kpi-${range.from}-${range.to}.xlsx`), 'xlsx');
}
