/**
 * A lock holder stopped for longer than its lock's stale threshold, without
 * the test waiting that long: the process is stopped (SIGSTOP), and once
 * every thread of it is, its lock folder's mtime is set back past the
 * threshold, where the refreshes it can no longer make would have left it.
 * Should a refresh still land after that, the lock only goes stale by the
 * real clock, later: the outcome is the same.
 */
import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { readdir, utimes } from 'node:fs/promises';
import { join } from 'node:path';

/** Whether every thread of process `pid` is stopped (state `T`); false once it is gone. */
export function allThreadsStopped(pid: number): boolean {
  try {
    return readdirSync(`/proc/${pid}/task`).every((tid) => {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'T';
    });
  } catch {
    return false;
  }
}

/**
 * Dates a lock folder and what it holds (its holder's owner file) `ms` in the past.
 *
 * @param lockPath - the lock folder.
 * @param ms - how far back.
 */
async function dateBack(lockPath: string, ms: number): Promise<void> {
  const past = new Date(Date.now() - ms);
  const names = await readdir(lockPath).catch(() => [] as string[]);
  await Promise.all(names.map((name) => utimes(join(lockPath, name), past, past).catch(() => undefined)));
  await utimes(lockPath, past, past).catch(() => undefined);
}

/**
 * Stops `holder` and dates its lock folder (and its owner file) `staleMs` and more in the past.
 *
 * @param holder - the process holding the lock.
 * @param lockPath - its lock folder.
 * @param staleMs - the threshold past which another process takes the lock over.
 */
export async function stopHolderPastStale(holder: ChildProcess, lockPath: string, staleMs: number): Promise<void> {
  holder.kill('SIGSTOP');
  const deadline = Date.now() + 10_000;
  while (!allThreadsStopped(holder.pid as number)) {
    if (Date.now() > deadline) throw new Error(`process ${holder.pid} did not stop`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await dateBack(lockPath, 2 * staleMs);
}

/**
 * Dates every lock folder in `lockDir` `staleMs` and more in the past: the locks a killed process left,
 * as they are once that threshold has passed, for a test about what comes after the takeover.
 *
 * @param lockDir - a folder of lock folders (`*.lock`); missing, it holds none.
 * @param staleMs - the threshold past which another process takes a lock over.
 */
export async function dateLocksPastStale(lockDir: string, staleMs: number): Promise<void> {
  const names = await readdir(lockDir).catch(() => [] as string[]);
  await Promise.all(names.filter((name) => name.endsWith('.lock')).map((name) => dateBack(join(lockDir, name), 2 * staleMs)));
}
