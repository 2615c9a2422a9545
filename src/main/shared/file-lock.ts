/**
 * A lock shared by every process on the machine that keeps state in the same
 * folder (two OpenCode processes on one project are common): a lock folder
 * created with `mkdir` (atomic on every file system), its mtime refreshed
 * while held, taken over once it is older than `staleMs` (its holder died).
 * Inside one process, callers of the same lock are queued first, so they do
 * not poll each other.
 *
 * Every step has a deadline: a lock or a state file on a folder that stops
 * answering (a hung network home) makes the call fail with `STATE_TIMEOUT`
 * instead of hanging, and the queue moves on.
 */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import lockfile from 'proper-lockfile';

/** Why a locked step did not run or did not finish. */
export type LockFailureCode = 'LOCK_BUSY' | 'STATE_TIMEOUT';

/** A locked step that could not run or finish in time; the state is as it was, or as the step left it atomically. */
export class StateLockError extends Error {
  constructor(
    readonly code: LockFailureCode,
    message: string,
  ) {
    super(message);
    this.name = 'StateLockError';
  }
}

/** How long to wait for a lock and hold it. */
export interface LockTiming {
  /** How long to wait for another holder. @default 10000 */
  waitMs?: number;
  /** How long the step may take once the lock is held (the signal is aborted then). @default 10000 */
  holdMs?: number;
  /** A lock not refreshed for this long belongs to a dead process. @default 10000 */
  staleMs?: number;
}

const queues = new Map<string, Promise<unknown>>();

/**
 * `work`'s outcome, or a `STATE_TIMEOUT` {@link StateLockError} once `ms` have passed. The work is not
 * stopped: `onLate` is where the caller arranges that.
 *
 * @param work - the step to wait for.
 * @param ms - how long to wait.
 * @param lateMessage - the message of the timeout error.
 * @param onLate - called when the time runs out, before the rejection.
 */
export function settleWithin<T>(work: Promise<T>, ms: number, lateMessage: string, onLate: () => void = () => undefined): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      onLate();
      reject(new StateLockError('STATE_TIMEOUT', lateMessage));
    }, ms);
    timer.unref?.();
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

function within<T>(work: Promise<T>, ms: number, onLate: () => void): Promise<T> {
  return settleWithin(work, ms, `state step did not finish within ${ms} ms`, onLate);
}

async function acquire(lockPath: string, timing: Required<LockTiming>, signal: AbortSignal): Promise<() => Promise<void>> {
  let late = false;
  const taking = (async () => {
    await mkdir(dirname(lockPath), { recursive: true });
    return lockfile.lock(lockPath, {
      realpath: false,
      lockfilePath: lockPath,
      stale: timing.staleMs,
      retries: { retries: Math.ceil(timing.waitMs / 60) + 5, minTimeout: 20, maxTimeout: 120, factor: 1.4, randomize: true },
      // Refreshing failed or another process took the lock over: the step must not write any more.
      onCompromised: () => abortQuietly(signal),
    });
  })();
  // Taken after the deadline: given back at once.
  taking.then((release) => (late ? release().catch(() => undefined) : undefined), () => undefined);
  try {
    return await within(taking, timing.waitMs, () => (late = true));
  } catch (error) {
    if (error instanceof StateLockError) throw new StateLockError('LOCK_BUSY', `lock ${lockPath} still held after ${timing.waitMs} ms`);
    if ((error as NodeJS.ErrnoException)?.code === 'ELOCKED') throw new StateLockError('LOCK_BUSY', `lock ${lockPath} still held after ${timing.waitMs} ms`);
    throw error;
  }
}

const controllers = new WeakMap<AbortSignal, AbortController>();
function abortQuietly(signal: AbortSignal): void {
  controllers.get(signal)?.abort(new StateLockError('STATE_TIMEOUT', 'the lock was lost'));
}

/**
 * Runs `step` while holding the lock `lockPath` (a folder created for it).
 * The step gets a signal aborted when its time is up or the lock is lost: it
 * checks it before it writes (see {@link throwIfAborted}).
 *
 * @param lockPath - the lock folder's path; its parent is created when missing.
 * @param step - the read-modify-write to run.
 * @param timing - see {@link LockTiming}.
 */
export async function withFileLock<T>(lockPath: string, step: (signal: AbortSignal) => Promise<T>, timing: LockTiming = {}): Promise<T> {
  const filled: Required<LockTiming> = { waitMs: timing.waitMs ?? 10_000, holdMs: timing.holdMs ?? 10_000, staleMs: Math.max(2_000, timing.staleMs ?? 10_000) };
  const previous = queues.get(lockPath) ?? Promise.resolve();
  const run = async (): Promise<T> => {
    const controller = new AbortController();
    controllers.set(controller.signal, controller);
    const release = await acquire(lockPath, filled, controller.signal);
    try {
      return await within(Promise.resolve().then(() => step(controller.signal)), filled.holdMs, () => controller.abort(new StateLockError('STATE_TIMEOUT', `state step passed ${filled.holdMs} ms`)));
    } finally {
      controller.abort(new StateLockError('STATE_TIMEOUT', 'the step is over'));
      // A release that hangs too must not hold the queue.
      await within(release(), filled.waitMs, () => undefined).catch(() => undefined);
    }
  };
  const next = previous.then(run, run);
  const settled = next.catch(() => undefined);
  queues.set(lockPath, settled);
  void settled.then(() => {
    if (queues.get(lockPath) === settled) queues.delete(lockPath);
  });
  return next;
}

/** Throws when the step's time is up or its lock was lost: nothing may be written then. */
export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new StateLockError('STATE_TIMEOUT', 'state step was stopped');
}
