/**
 * CPU time of processes on Linux, read from /proc, for benchmarks that report where a request's
 * time goes (test/bench/remote-writes.ts): a server process's own, and a PostgreSQL cluster's,
 * whose backends come and go with their connections.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// /proc counts in clock ticks of 1/100 s (USER_HZ, 100 on every Linux the build machines run).
const msPerTick = 10;

interface Times {
  parent: number;
  /** utime + stime: the process's own CPU. */
  own: number;
  /** cutime + cstime: its children's that it has waited for, that is, those that ended. */
  endedChildren: number;
}

function timesOf(pid: number): Times | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) may hold spaces and brackets: the fields after it follow its last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state): ppid is field 4, utime..cstime fields 14..17.
  const tick = (field: number) => Number(fields[field - 3]);
  return { parent: tick(4), own: (tick(14) + tick(15)) * msPerTick, endedChildren: (tick(16) + tick(17)) * msPerTick };
}

/** The CPU time a process has used so far, in ms. */
export function processCpuMs(pid: number): number {
  return timesOf(pid)?.own ?? 0;
}

/**
 * The CPU time of a process and all its children so far, in ms: those that ended (counted in
 * the parent once waited for) and those still running. PostgreSQL's postmaster waits for each
 * backend, so this counts the whole cluster's work, connections long closed included.
 */
export function processTreeCpuMs(pid: number): number {
  const root = timesOf(pid);
  if (!root) return 0;
  let total = root.own + root.endedChildren;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const child = timesOf(Number(name));
    if (child?.parent === pid) total += child.own;
  }
  return total;
}

/** The postmaster's pid of the cluster whose data folder is `dataDirectory` (first line of postmaster.pid). */
export function postmasterPid(dataDirectory: string): number {
  return Number(readFileSync(join(dataDirectory, 'postmaster.pid'), 'utf8').split('\n')[0]);
}
