/**
 * System text that stays byte-identical across a session's model calls. 2.x
 * asks for system text on every call, and a provider's prompt cache holds
 * only while the prompt's start does not change: the plugin's blocks are
 * built at a session's first work call and repeated as they are until that
 * session compacts (or a goal-frame tool changes its frame), when they are
 * built again. Kept for the sessions used most recently, up to a bound.
 */

/** Sessions whose blocks are kept. */
export const STABLE_SESSIONS = 500;

/** Per-session blocks. */
export interface StableSystem {
  get(sessionID: string): readonly string[] | undefined;
  set(sessionID: string, blocks: readonly string[]): void;
  /** The next work call of the session builds its blocks again. */
  forget(sessionID: string): void;
}

/** @param limit - sessions kept. @default STABLE_SESSIONS */
export function createStableSystem(limit = STABLE_SESSIONS): StableSystem {
  const kept = new Map<string, readonly string[]>();
  return {
    get(sessionID) {
      const blocks = kept.get(sessionID);
      if (blocks) {
        // Most recently used last: the first key is the one to drop.
        kept.delete(sessionID);
        kept.set(sessionID, blocks);
      }
      return blocks;
    },
    set(sessionID, blocks) {
      kept.delete(sessionID);
      kept.set(sessionID, blocks);
      while (kept.size > limit) {
        const oldest = kept.keys().next().value;
        if (oldest === undefined) break;
        kept.delete(oldest);
      }
    },
    forget(sessionID) {
      kept.delete(sessionID);
    },
  };
}
