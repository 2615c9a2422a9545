/**
 * Reading the plugin's state files (chain state, frames, outbox entries) on
 * a disk that may be slow, hung or damaged: every read has a deadline, at
 * most one read of a file is outstanding (a read that never returns holds
 * one thread of libuv's small pool, not all of them), and a damaged file is
 * kept aside as `<name>.corrupt-<time>` with one log line, never silently
 * dropped or written over. A folder where the file should be is damaged
 * too: no wait makes it readable, and no write could replace it.
 */
import { readFile, rename } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Logger } from './logger.js';
import { settleWithin, StateLockError } from './file-lock.js';

const outstanding = new Map<string, Promise<string | null>>();

/** How a state file that is not a file is kept aside: see {@link keepAside}. */
export interface KeepAsideSettings {
  /** What the file holds, for the log line ("summary chain state"). */
  what: string;
  logger?: Logger | undefined;
  now?: (() => number) | undefined;
}

/**
 * The file's text, or `null` when it does not exist.
 *
 * @param path - the state file.
 * @param deadlineMs - how long the read may take; past it, `STATE_TIMEOUT` is thrown.
 * @param aside - when given, a folder at `path` is kept aside as a damaged file is and read as missing;
 *   when it cannot be moved, its EISDIR is thrown.
 */
export async function readStateText(path: string, deadlineMs: number, aside?: KeepAsideSettings): Promise<string | null> {
  try {
    return await readOnce(path, deadlineMs);
  } catch (error) {
    if (!aside || (error as NodeJS.ErrnoException)?.code !== 'EISDIR') throw error;
    if (!(await keepAside(path, aside.what, aside.logger, aside.now))) throw error;
    return null;
  }
}

async function readOnce(path: string, deadlineMs: number): Promise<string | null> {
  if (outstanding.has(path)) throw new StateLockError('STATE_TIMEOUT', `an earlier read of ${basename(path)} has not returned`);
  const reading = readFile(path, 'utf8').then(
    (text) => text,
    (error: unknown) => {
      if ((error as NodeJS.ErrnoException)?.code === 'ENOENT') return null;
      throw error;
    },
  );
  outstanding.set(path, reading);
  const forget = (): void => {
    outstanding.delete(path);
  };
  reading.then(forget, forget);
  return settleWithin(reading, deadlineMs, `reading ${basename(path)} took more than ${deadlineMs} ms`);
}

/** The name a damaged file is kept under. */
export function corruptName(path: string, at: number): string {
  return `${path}.corrupt-${new Date(at).toISOString().replace(/[:.]/g, '-')}`;
}

/**
 * Moves a damaged state file aside (same folder, `<name>.corrupt-<time>`)
 * and logs it once. Never throws: when even the rename fails, the file stays
 * and that is logged instead.
 *
 * @param path - the damaged file.
 * @param what - what the file held, for the log line ("summary chain state").
 * @param logger - where the line goes.
 * @param now - the clock.
 * @returns whether the file is out of the way (moved, or already gone); when not, nothing may be written over it.
 */
export async function keepAside(path: string, what: string, logger: Logger | undefined, now: () => number = Date.now): Promise<boolean> {
  const target = corruptName(path, now());
  try {
    await rename(path, target);
    logger?.warn(`state: damaged ${what} ${path} kept aside as ${basename(target)}; starting from an empty state`);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException)?.code === 'ENOENT') return true; // Another process moved it first.
    logger?.error(`state: damaged ${what} ${path} could not be kept aside (${(error as NodeJS.ErrnoException)?.code ?? 'error'}); left as it is`);
    return false;
  }
}
