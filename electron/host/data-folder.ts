/**
 * Opening a data folder from an entry point (server, admin commands, the local instance): the
 * store makes it for its owner only and tightens one that other users could read
 * (store/owner-only.ts); this says so in the process's log, so whoever set the folder up learns
 * why its mode changed (docs/deployment.md "The data folder").
 */
import { DataDir } from '../store/data-dir.js';
import { tighteningNotice } from '../store/owner-only.js';

export function openDataFolder(path: string, say: (line: string) => void = console.log): DataDir {
  const dataDir = DataDir.open(path);
  if (dataDir.tightening) say(tighteningNotice(dataDir.tightening));
  return dataDir;
}
