/**
 * A lock shared by every process on the machine that keeps state in the same
 * folder (two OpenCode processes on one project are common): a lock folder
 * holding one file, `owner-<token>`, named by its holder's random token. The
 * holder refreshes that file's mtime (and the folder's) while it holds it;
 * another process takes it over once that mtime stops moving for `staleMs`
 * (its holder died or was stopped), or once it lies further from the clock
 * than `staleMs` either way (a clock stepped back, a server ahead), so a
 * timestamp from another clock never keeps a lock forever.
 *
 * Every change of the lock is one rename whose success is its own check, so
 * no process acts on what it judged a moment before:
 * - taking the lock renames a folder prepared beside it, its owner file
 *   already inside, onto the lock's path: that succeeds only where no folder
 *   is, or an empty one (what a holder leaves when its file is gone), never
 *   over a folder that names a holder;
 * - taking a stale lock over renames that holder's own file, `owner-<token>`,
 *   out of the folder: the name exists in that holder's folder only, so the
 *   rename cannot touch a lock taken since by someone else (whose file has
 *   another name), and of several processes that judged the same holder
 *   stale, exactly one succeeds; the folder, empty now, is free;
 * - releasing is the same rename, made by the holder.
 * A process paused between judging a lock stale and its rename therefore
 * finds, when it resumes, either that holder's file (still stale: it takes
 * it) or none (gone: its rename fails and it waits as for any holder).
 *
 * Whoever took a lock over may have taken it from a holder that was only
 * stopped (SIGSTOP, a suspended laptop): a holder checks that its owner file
 * is still there right before each write ({@link assertHeld}), and its
 * refresh aborts its signal as soon as it finds the file gone.
 *
 * Inside one process, callers of the same lock are queued first, so they do
 * not poll each other. Every step has a deadline: a lock or a state file on a
 * folder that stops answering (a hung network home) makes the call fail with
 * `STATE_TIMEOUT` instead of hanging. A lock folder the disk refuses
 * (the disk's refusals: disk-refusals.ts) fails at once with its cause, never as "busy".
 */
import { randomBytes } from 'node:crypto';
import { renameSync, rmdirSync, rmSync } from 'node:fs';
import { mkdir, readdir, rename, rm, rmdir, stat, unlink, utimes, writeFile } from 'node:fs/promises';
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

/** The file that names a lock's holder: it exists in that holder's lock folder only. */
const ownerFile = (lockPath: string, token: string): string => join(lockPath, `owner-${token}`);
/** Owner files: this version's `owner-<token>`, and an earlier version's `owner` (its token inside). */
const isOwnerName = (name: string): boolean => name === 'owner' || name.startsWith('owner-');

async function ownsLock(lockPath: string, token: string): Promise<boolean> {
  try {
    await stat(ownerFile(lockPath, token));
    return true;
  } catch {
    return false;
  }
}

/** How long this process has seen each holder's mtime stay the same: a mtime from another clock still stops moving when its holder stops. */
const sightings = new Map<string, { mtimeMs: number; since: number }>();

function isStale(key: string, mtimeMs: number, staleMs: number): boolean {
  const now = Date.now();
  const seen = sightings.get(key);
  const since = seen && seen.mtimeMs === mtimeMs ? seen.since : performance.now();
  sightings.set(key, { mtimeMs, since });
  return mtimeMs < now - staleMs || mtimeMs > now + staleMs || performance.now() - since > staleMs;
}

const mtimeOf = (path: string): Promise<number | null> => stat(path).then((info) => info.mtimeMs, () => null);

/**
 * Takes over the holder of the folder at `lockPath` if it is stale, by renaming its owner file away
 * (the one step, see the module's comment). A folder that names no holder is never a lock of this
 * version, which appears with its owner file: what it holds is removed once it is stale, entry by
 * entry, so the folder can be taken.
 */
async function takeOverStale(lockPath: string, staleMs: number): Promise<void> {
  const names = await readdir(lockPath).catch(() => null);
  const folderMtime = await mtimeOf(lockPath);
  // Gone, or not a folder: tried again at once.
  if (names === null || folderMtime === null) {
    if (folderMtime !== null && isStale(lockPath, folderMtime, staleMs)) await unlink(lockPath).catch(() => undefined);
    return;
  }
  const owners = names.filter(isOwnerName);
  if (owners.length === 0) {
    if (names.length > 0 && isStale(lockPath, folderMtime, staleMs)) {
      for (const name of names) await rm(join(lockPath, name), { recursive: true, force: true }).catch(() => undefined);
    }
    // Empty: free (the rename onto it replaces it; where a platform will not, it is removed, being empty).
    if (names.length === 0) await rmdir(lockPath).catch(() => undefined);
    return;
  }
  for (const name of owners) {
    const file = join(lockPath, name);
    const fileMtime = await mtimeOf(file);
    if (fileMtime === null) continue; // Released or taken over meanwhile.
    // The later of the file's and the folder's: an earlier version refreshes only the folder.
    if (!isStale(file, Math.max(fileMtime, folderMtime), staleMs)) continue;
    const aside = `${lockPath}.stale-${randomBytes(6).toString('hex')}`;
    try {
      await rename(file, aside);
    } catch {
      continue; // Another process took it over first, or its holder released it.
    }
    sightings.delete(file);
    await rm(aside, { force: true }).catch(() => undefined);
  }
}

/** The folder a holder prepares beside the lock, its owner file inside, so the lock appears whole or not at all. */
async function prepare(lockPath: string, token: string): Promise<string> {
  const prepared = `${lockPath}.new-${token}`;
  try {
    await mkdir(prepared, { mode: 0o700 });
  } catch (error) {
    const code = codeOf(error);
    if (code === 'ENOENT') {
      await makeDirectory(dirname(lockPath));
      await mkdir(prepared, { mode: 0o700 });
    } else if (code !== 'EEXIST') throw error;
  }
  // Written at every try: whatever removed it, the folder must never appear without it.
  await writeFile(join(prepared, `owner-${token}`), `${token}\n`, { mode: 0o600 });
  return prepared;
}

/** One try: the lock, or `false` when it is held. Throws at once on a folder the disk refuses. */
async function tryTake(lockPath: string, token: string, staleMs: number): Promise<boolean> {
  const prepared = await prepare(lockPath, token);
  // Dated now by this machine's clock, not the file server's: it must not look stale the moment it appears.
  const at = new Date();
  await utimes(join(prepared, `owner-${token}`), at, at);
  await utimes(prepared, at, at);
  try {
    await rename(prepared, lockPath);
    return true;
  } catch (error) {
    const code = codeOf(error);
    // Prepared folder gone (removed from outside): prepared again next time.
    if (code === 'ENOENT') return false;
    // ENOTEMPTY/EEXIST: a folder naming a holder; ENOTDIR: something else where the lock goes.
    if (code !== 'ENOTEMPTY' && code !== 'EEXIST' && code !== 'ENOTDIR') throw error;
    await takeOverStale(lockPath, staleMs);
    return false;
  }
}

function refusal(lockPath: string, error: unknown): Error {
  const code = codeOf(error) ?? 'error';
  return Object.assign(new Error(`lock folder ${dirname(lockPath)} cannot be used (${code}: ${(error as Error)?.message ?? String(error)}); not retried`), { code });
}

async function acquire(lockPath: string, timing: Required<LockTiming>, controller: AbortController): Promise<HeldLock> {
  const token = `${process.pid}-${randomBytes(12).toString('hex')}`;
  let late = false;
  const taking = (async (): Promise<void> => {
    try {
      while (!late) {
        if (await tryTake(lockPath, token, timing.staleMs)) return;
        await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 100));
      }
    } catch (error) {
      await rm(`${lockPath}.new-${token}`, { recursive: true, force: true }).catch(() => undefined);
      throw error;
    }
    await rm(`${lockPath}.new-${token}`, { recursive: true, force: true }).catch(() => undefined);
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
        // The same one rename as a release: it fails where the lock is another's by now.
        const aside = `${path}.released-${randomBytes(6).toString('hex')}`;
        try {
          renameSync(ownerFile(path, token), aside);
          rmSync(aside, { force: true });
          rmdirSync(path);
        } catch {
          // Not ours any more, or not empty: left as it is.
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
    const at = new Date();
    try {
      await utimes(ownerFile(held.path, held.token), at, at);
    } catch (error) {
      // The file is gone only when another process took the lock over (or it was removed under the holder).
      if (codeOf(error) === 'ENOENT' || codeOf(error) === 'ENOTDIR') held.controller.abort(new StateLockError('LOCK_LOST', `lock ${held.path} was taken over by another process`));
      return;
    }
    // For an earlier version of this code, which judges by the folder alone.
    await utimes(held.path, at, at);
  } catch {
    // A refresh that failed once is tried again; staying unrefreshed only lets another process take over, which the check before each write notices.
  } finally {
    refreshing.delete(held);
  }
}

async function releaseIfOurs(lockPath: string, token: string): Promise<void> {
  if (heldPaths.get(lockPath) === token) heldPaths.delete(lockPath);
  const aside = `${lockPath}.released-${randomBytes(6).toString('hex')}`;
  try {
    // One step, as a takeover: it fails where the holder's file is gone, and touches no other holder's lock.
    await rename(ownerFile(lockPath, token), aside);
  } catch {
    return; // Taken over, or already gone.
  }
  await rm(aside, { force: true }).catch(() => undefined);
  // Only an empty folder goes: one another process has taken meanwhile holds its owner file.
  await rmdir(lockPath).catch(() => undefined);
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
