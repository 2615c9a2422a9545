/**
 * A worker yields the CPU to the host: on Linux each thread has its own nice
 * value, so a worker raises its own and the host's thread, which OpenCode
 * serves every request on, wins a core whenever both want one. On a 2-core
 * machine with two busy workers the host's thread otherwise waits its turn
 * behind them on every wake-up (docs/benchmarks.md).
 *
 * Only the calling thread is touched, never the host's (whose thread id is
 * the process id) and never a thread the host owns. Elsewhere (macOS,
 * Windows) a process has one priority for all its threads, so nothing is
 * changed there.
 */
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** The highest nice value Linux allows: the lowest priority. */
export const MAX_NICE = 19;

/** What {@link lowerThreadPriority} did. */
export type PriorityOutcome =
  | { kind: 'lowered'; nice: number }
  | { kind: 'unchanged'; reason: string };

/** The kernel's id of the calling thread, from `/proc/thread-self` (`<pid>/task/<tid>`). */
function threadId(): number | null {
  const link = readlinkSync('/proc/thread-self');
  const tid = Number(link.slice(link.lastIndexOf('/') + 1));
  return Number.isInteger(tid) && tid > 0 ? tid : null;
}

/**
 * Adds `niceness` to the calling thread's nice value (at most {@link MAX_NICE}). Never throws.
 *
 * @param niceness - how much lower than now; 0 changes nothing.
 * @param platform - the operating system, for tests.
 */
export function lowerThreadPriority(niceness: number, platform: NodeJS.Platform = process.platform): PriorityOutcome {
  if (!Number.isInteger(niceness) || niceness <= 0) return { kind: 'unchanged', reason: 'niceness 0' };
  if (platform !== 'linux') return { kind: 'unchanged', reason: `threads share one priority on ${platform}` };
  try {
    const tid = threadId();
    if (tid === null) return { kind: 'unchanged', reason: 'no thread id' };
    // The host's own thread: this code runs inline there when the pool is down.
    if (tid === process.pid) return { kind: 'unchanged', reason: "the host's thread" };
    const nice = Math.min(MAX_NICE, getPriority(tid) + niceness);
    setPriority(tid, nice);
    return { kind: 'lowered', nice: getPriority(tid) };
  } catch (error) {
    return { kind: 'unchanged', reason: error instanceof Error ? error.message : String(error) };
  }
}
