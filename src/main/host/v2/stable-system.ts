/**
 * System text that stays byte-identical across a session's model calls. 2.x
 * asks for system text on every call, and a provider's prompt cache holds
 * only while the prompt's start does not change: the plugin's blocks are
 * built at a session's first work call and repeated as they are until that
 * session compacts (or a goal-frame tool changes its frame), when they are
 * built again. Kept for the sessions used most recently, up to a bound.
 */
import { createRecentMap } from './recent-map.js';

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
  const kept = createRecentMap<readonly string[]>(limit);
  return {
    get: (sessionID) => kept.get(sessionID),
    set: (sessionID, blocks) => kept.set(sessionID, blocks),
    forget: (sessionID) => kept.delete(sessionID),
  };
}
