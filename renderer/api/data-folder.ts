/**
 * Where the data folder is, from the desktop shell when the preload offers it, from the
 * browser host otherwise. Only the desktop app can open it in the file manager.
 */
import type { DataFolder, OpenFolderResult, PlannerBridge } from '../../shared/ipc.js';
import { hostCall } from './host-call.js';

export interface DataFolderControl {
  folder(): Promise<DataFolder>;
  /** Absent in the browser host. */
  open?: () => Promise<OpenFolderResult>;
}

export function dataFolderControl(bridge: PlannerBridge | undefined = window.planner): DataFolderControl {
  if (bridge) return { folder: () => bridge.getDataFolder(), open: () => bridge.openDataFolder() };
  return { folder: () => hostCall<DataFolder>('GET', '/host/data-folder') };
}
