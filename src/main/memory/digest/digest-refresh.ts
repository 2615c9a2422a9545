/**
 * Starting a digest update as background work after a note is handed to
 * delivery. Calls while one runs are coalesced into one more pass after it:
 * the pass folds whatever the store lists by then, so a burst of notes costs
 * two passes, not one per note.
 */
import type { BackgroundWork } from '../../shared/background-work.js';
import type { Logger } from '../../shared/logger.js';
import type { DigestUpdater } from './digest-updater.js';

/**
 * @param updater - the project's digest updater.
 * @param background - where the work is tracked (shutdown waits for it).
 * @param logger - told when a pass fails.
 * @returns `refresh`, which asks for a pass, and `close`, for shutdown: no pass starts after it, and the one
 *   running stops at its store call (it resolves once that pass has let its lock go).
 */
export function digestRefresher(updater: DigestUpdater, background: BackgroundWork, logger: Logger): { refresh(): void; close(): Promise<void> } {
  let closed = false;
  let current: Promise<void> = Promise.resolve();
  let running = false;
  let again = false;
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
  return {
    refresh() {
      if (closed) return;
      if (running) {
        again = true;
        return;
      }
      background.run('memory digest', () => (current = run()));
    },
    async close() {
      closed = true;
      updater.close();
      await current.catch(() => undefined);
    },
  };
}
