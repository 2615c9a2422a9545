/**
 * Each session's latest extracted items, kept when its compaction note is
 * written, so that the note which supersedes it when the summary arrives
 * carries them beside the model's items without reading the store again.
 * Bounded: a process that outlives many sessions keeps only the most recent;
 * a session no longer held (or a restart) reads its newest note back instead.
 */
import { LRUCache } from 'lru-cache';
import type { MemoryItem } from '../../core/memory/item-kinds.js';

/** Sessions kept at most. */
export const SESSION_ITEMS_SESSIONS = 64;

/** A session's extracted items, and the time of the note that holds them. */
export interface RememberedItems {
  items: readonly MemoryItem[];
  at: Date;
}

/** See the module's comment. */
export interface SessionItems {
  remember(sessionID: string, remembered: RememberedItems): void;
  /** The session's latest, or `undefined` when it is not held. */
  latest(sessionID: string): RememberedItems | undefined;
}

/**
 * @param max - sessions kept at most.
 */
export function createSessionItems(max = SESSION_ITEMS_SESSIONS): SessionItems {
  const held = new LRUCache<string, RememberedItems>({ max });
  return {
    remember: (sessionID, remembered) => void held.set(sessionID, remembered),
    latest: (sessionID) => held.get(sessionID),
  };
}
