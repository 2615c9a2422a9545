/**
 * Starting digest updates as background work, one pass per compaction. A
 * compaction hands its note to delivery before the model writes the summary,
 * and the summary then hands the note that supersedes it: a pass after each
 * would spawn the store's CLI twice as often (list, read the digest, read the
 * notes, write) to fold what one pass folds. So the compaction's request
 * waits for its session's summary ({@link DigestRefresher.defer}), the
 * summary starts the pass ({@link DigestRefresher.summarized}), and a request
 * made while a pass is pending or running is one more pass after it,
 * covering them all: the pass folds whatever the store lists by then. A
 * summary done before its compaction's note was handed (the note's
 * extraction outran the model) leaves the note its own pass.
 */
import type { BackgroundWork } from '../../shared/background-work.js';
import type { Logger } from '../../shared/logger.js';
import type { DigestUpdater } from './digest-updater.js';

/**
 * How long a compaction's pass waits for the summary that follows it: longer than a model takes to write
 * one. Without a summary (summaries off, a host that never says), the pass starts then.
 */
export const DEFERRED_PASS_MS = 60_000;

/** Sessions remembered whose summary came before their compaction's note; more are a host that never compacts in order. */
const EARLY_SUMMARIES = 32;

/** A project's digest passes. */
export interface DigestRefresher {
  /** After a compaction's note: a pass once its session's summary is done, at the latest after the wait. */
  defer(sessionID: string): void;
  /**
   * After a session's summary: a pass now when it handed a note or its compaction's pass waits for it,
   * covering every pass waiting; one more after the pass running, if any.
   */
  summarized(sessionID: string, noteHanded: boolean): void;
  /** A waiting pass, if any, now: at shutdown, before its wait for background work. */
  flush(): void;
  /** For shutdown: no pass starts after it, and the one running stops at its store call (it resolves once that pass has let its lock go). */
  close(): Promise<void>;
}

/**
 * @param updater - the project's digest updater.
 * @param background - where the work is tracked (shutdown waits for it).
 * @param logger - told when a pass fails.
 * @param waitMs - see {@link DEFERRED_PASS_MS}.
 */
export function digestRefresher(updater: DigestUpdater, background: BackgroundWork, logger: Logger, waitMs = DEFERRED_PASS_MS): DigestRefresher {
  let closed = false;
  let current: Promise<void> = Promise.resolve();
  let running = false;
  let again = false;
  let deferred: ReturnType<typeof setTimeout> | null = null;
  const waiting = new Set<string>();
  const early = new Set<string>();
  const run = async (): Promise<void> => {
    running = true;
    try {
      do {
        again = false;
        const outcome = await updater.update();
        // The digest is as it was: the next pass folds what this one could not.
        if (outcome.kind === 'failed' && !closed) logger.warn(`memory digest: not updated (${outcome.reason}); the next compaction folds these notes`);
      } while (again && !closed);
    } finally {
      running = false;
    }
  };
  const cancel = (): void => {
    if (deferred) clearTimeout(deferred);
    deferred = null;
    waiting.clear();
  };
  const refresh = (): void => {
    if (closed) return;
    cancel();
    if (running) {
      again = true;
      return;
    }
    background.run('memory digest', () => (current = run()));
  };
  return {
    defer(sessionID) {
      if (closed) return;
      if (early.delete(sessionID)) return refresh();
      waiting.add(sessionID);
      if (deferred) return;
      deferred = setTimeout(refresh, waitMs);
      // A wait never keeps the process alive: shutdown flushes it, and the next start folds what it missed.
      deferred.unref?.();
    },
    summarized(sessionID, noteHanded) {
      if (closed) return;
      const awaited = waiting.has(sessionID);
      if (!awaited) {
        early.add(sessionID);
        if (early.size > EARLY_SUMMARIES) early.delete(early.values().next().value as string);
      }
      if (noteHanded || awaited) refresh();
    },
    flush() {
      if (deferred) refresh();
    },
    async close() {
      closed = true;
      cancel();
      updater.close();
      await current.catch(() => undefined);
    },
  };
}
