/**
 * A lock shared by every process on the machine that keeps state in the same
 * folder (two OpenCode processes on one project are common): a lock folder
 * created with `mkdir` (atomic on every file system) holding an `owner` file
 * with the holder's random token. The holder refreshes the folder's mtime
 * while it holds it; another process takes it over once that mtime stops
 * moving for `staleMs` (its holder died or was stopped), or once it lies
 * further from the clock than `staleMs` either way (a clock stepped back, a
 * server ahead), so a timestamp from another clock never keeps a lock forever.
 *
 * Whoever took a lock over may have taken it from a holder that was only
 * stopped (SIGSTOP, a suspended laptop): a holder checks that the owner file
 * still holds its token right before each write ({@link assertHeld}), and its
 * refresh aborts its signal as soon as it sees the lock is gone.
 *
 * Inside one process, callers of the same lock are queued first, so they do
 * not poll each other. Every step has a deadline: a lock or a state file on a
 * folder that stops answering (a hung network home) makes the call fail with
 * `STATE_TIMEOUT` instead of hanging. A lock folder the disk refuses
 * (the disk's refusals: disk-refusals.ts) fails at once with its cause, never as "busy".
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { makeDirectory } from '../../io/atomic-file.js';
import { isDiskRefusal } from './disk-refusals.js';

/** Why a locked step did not run or did not finish. */
export type LockFailureCode = 'LOCK_BUSY' | 'LOCK_LOST' | 'STATE_TIMEOUT';

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
  /** A lock not refreshed for this long belongs to a dead or stopped process. @default 10000 */
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

const codeOf = (error: unknown): string | undefined => (error as NodeJS.ErrnoException)?.code;

/** A lock this process holds. */
interface HeldLock {
  path: string;
  token: string;
  controller: AbortController;
  timer: NodeJS.Timeout;
}

/** Locks held now, by their signal; and by path, so an exiting process leaves none behind. */
const holders = new WeakMap<AbortSignal, HeldLock>();
const heldPaths = new Map<string, string>();
let exitHookSet = false;

const ownerFile = (lockPath: string): string => join(lockPath, 'owner');

async function ownsLock(lockPath: string, token: string): Promise<boolean> {
  try {
    return (await readFile(ownerFile(lockPath), 'utf8')).trim() === token;
  } catch {
    return false;
  }
}

/** How long this process has seen each lock's mtime stay the same: a mtime from another clock still stops moving when its holder stops. */
const sightings = new Map<string, { mtimeMs: number; since: number }>();

function isStale(lockPath: string, mtimeMs: number, staleMs: number): boolean {
  const now = Date.now();
  const seen = sightings.get(lockPath);
  const since = seen && seen.mtimeMs === mtimeMs ? seen.since : performance.now();
  sightings.set(lockPath, { mtimeMs, since });
  return mtimeMs < now - staleMs || mtimeMs > now + staleMs || performance.now() - since > staleMs;
}

/** Moves a stale lock out of the way; only one of several processes doing it at once succeeds. */
async function takeOver(lockPath: string, mtimeMs: number): Promise<void> {
  try {
    // Refreshed since it was judged: not stale after all.
    if ((await stat(lockPath)).mtimeMs !== mtimeMs) return;
    const aside = `${lockPath}.stale-${randomBytes(6).toString('hex')}`;
    await rename(lockPath, aside);
    sightings.delete(lockPath);
    await rm(aside, { recursive: true, force: true });
  } catch {
    // Another process took it over first, or the holder released it.
  }
}

/** One try: the lock, or `false` when it is held. Throws at once on a folder the disk refuses. */
async function tryTake(lockPath: string, token: string, staleMs: number): Promise<boolean> {
  try {
    await mkdir(lockPath);
  } catch (error) {
    const code = codeOf(error);
    if (code === 'ENOENT') {
      await makeDirectory(dirname(lockPath));
      return false;
    }
    if (code !== 'EEXIST') throw error;
    let mtimeMs: number;
    try {
      mtimeMs = (await stat(lockPath)).mtimeMs;
    } catch {
      return false; // Released meanwhile: tried again at once.
    }
    if (isStale(lockPath, mtimeMs, staleMs)) await takeOver(lockPath, mtimeMs);
    return false;
  }
  try {
    await writeFile(ownerFile(lockPath), `${token}\n`, { mode: 0o600 });
    // The folder's mtime by this machine's clock, not the file server's.
    const at = new Date();
    await utimes(lockPath, at, at);
  } catch (error) {
    await rm(lockPath, { recursive: true, force: true }).catch(() => undefined);
    throw error;
  }
  return true;
}

function refusal(lockPath: string, error: unknown): Error {
  const code = codeOf(error) ?? 'error';
  return Object.assign(new Error(`lock folder ${dirname(lockPath)} cannot be used (${code}: ${(error as Error)?.message ?? String(error)}); not retried`), { code });
}

async function acquire(lockPath: string, timing: Required<LockTiming>, controller: AbortController): Promise<HeldLock> {
  const token = `${process.pid}-${randomBytes(12).toString('hex')}`;
  let late = false;
  const taking = (async (): Promise<void> => {
    while (!late) {
      if (await tryTake(lockPath, token, timing.staleMs)) return;
      await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 100));
    }
    throw new StateLockError('LOCK_BUSY', 'gave up');
  })();
  // Taken after the deadline: given back at once.
  taking.then(
    () => (late ? releaseIfOurs(lockPath, token) : undefined),
    () => undefined,
  );
  try {
    await within(taking, timing.waitMs, () => (late = true));
  } catch (error) {
    if (error instanceof StateLockError) throw new StateLockError('LOCK_BUSY', `lock ${lockPath} still held after ${timing.waitMs} ms`);
    if (isDiskRefusal(error)) throw refusal(lockPath, error);
    throw error;
  }
  const held: HeldLock = { path: lockPath, token, controller, timer: setInterval(() => void refresh(held), Math.max(250, Math.floor(timing.staleMs / 4))) };
  held.timer.unref?.();
  holders.set(controller.signal, held);
  heldPaths.set(lockPath, token);
  if (!exitHookSet) {
    exitHookSet = true;
    // A process that exits while holding a lock gives it back instead of leaving it to go stale.
    process.once('exit', () => {
      for (const [path, token] of heldPaths) {
        try {
          if (readFileSync(ownerFile(path), 'utf8').trim() === token) rmSync(path, { recursive: true, force: true });
        } catch {
          // Gone, or not readable: left to go stale.
        }
      }
    });
  }
  return held;
}

const refreshing = new WeakSet<HeldLock>();
async function refresh(held: HeldLock): Promise<void> {
  if (refreshing.has(held) || held.controller.signal.aborted) return;
  refreshing.add(held);
  try {
    if (!(await ownsLock(held.path, held.token))) {
      held.controller.abort(new StateLockError('LOCK_LOST', `lock ${held.path} was taken over by another process`));
      return;
    }
    const at = new Date();
    await utimes(held.path, at, at);
  } catch {
    // A refresh that failed once is tried again; staying unrefreshed only lets another process take over, which the check before each write notices.
  } finally {
    refreshing.delete(held);
  }
}

async function releaseIfOurs(lockPath: string, token: string): Promise<void> {
  if (heldPaths.get(lockPath) === token) heldPaths.delete(lockPath);
  if (!(await ownsLock(lockPath, token))) return;
  const aside = `${lockPath}.released-${randomBytes(6).toString('hex')}`;
  try {
    await rename(lockPath, aside);
    await rm(aside, { recursive: true, force: true });
  } catch {
    // Already gone.
  }
}

/**
 * Runs `step` while holding the lock `lockPath` (a folder created for it).
 * The step gets a signal aborted when its time is up or the lock is lost: it
 * calls {@link assertHeld} right before it writes.
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
    const held = await acquire(lockPath, filled, controller);
    try {
      return await within(Promise.resolve().then(() => step(controller.signal)), filled.holdMs, () => controller.abort(new StateLockError('STATE_TIMEOUT', `state step passed ${filled.holdMs} ms`)));
    } finally {
      clearInterval(held.timer);
      if (!controller.signal.aborted) controller.abort(new StateLockError('STATE_TIMEOUT', 'the step is over'));
      // A release that hangs too must not hold the queue.
      await within(releaseIfOurs(lockPath, held.token), filled.waitMs, () => undefined).catch(() => undefined);
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

/**
 * The check right before a write under the lock: the step's time is not up
 * and the lock folder still names this holder. A holder that was stopped
 * while another process took its lock over learns it here, not after its
 * stale write.
 *
 * @param signal - the step's signal, as {@link withFileLock} gave it.
 */
export async function assertHeld(signal: AbortSignal): Promise<void> {
  throwIfAborted(signal);
  const held = holders.get(signal);
  if (!held) return;
  const owned = await within(ownsLock(held.path, held.token), 5_000, () => undefined).catch(() => false);
  if (!owned) held.controller.abort(new StateLockError('LOCK_LOST', `lock ${held.path} was taken over by another process`));
  throwIfAborted(signal);
}
