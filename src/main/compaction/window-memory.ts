/**
 * The window each session's last compaction read, kept as extraction reads
 * it (`MessageView.readable`), so that the next compaction of the session reads
 * only the pages written since.
 *
 * Pages come newest first. A reading stops at the first page that holds a
 * message the memory holds (by id), and the conversation is then the
 * remembered messages older than the oldest message the pages hold, followed
 * by every message the pages hold. So messages removed since (a revert) are
 * dropped, and the host's copy wins wherever the pages reach: a re-read
 * message whose key (its id and a hash of its content, `MessageView.key`)
 * differs from the remembered one — one still streaming at the last
 * compaction, or edited in place since — is taken as the host sends it, and
 * its new key misses the cached analysis. A re-read message whose key matches
 * is the same to extraction, and its kept copy is used: it is not copied
 * again. A change to a message older than every page read is not seen: that
 * is the price of not reading the whole window again, and the host does not
 * rewrite a finished message's text or output. When the joined conversation
 * no longer fills the window (a revert further back than the remembered
 * window reaches), the caller reads the window again.
 */
import { LRUCache } from 'lru-cache';
import { createTimeSlicer, yieldToHost } from '../../core/text/time-slicer.js';
import { keptCopies, type MessageView } from '../session/message-view.js';
import { MESSAGE_FLOOR_CHARS } from './conversation-window.js';

/** Characters (text and bounded tool output) kept over all sessions: a few windows. */
export const WINDOW_MEMORY_CHARS = 8 * 1024 * 1024;

/** Sessions kept at most. */
export const WINDOW_MEMORY_SESSIONS = 16;

/** Remembers sessions' windows; see the module's comment. */
export interface WindowMemory {
  /** A reading of `sessionID` that joins its pages to the remembered window, or `null` when none is remembered. */
  join(sessionID: string): Joining | null;
  /**
   * Keeps the window a compaction read, in slices of the host's thread. A later call for the session, or
   * `forget`, made while this one runs, wins: this one then keeps nothing.
   *
   * @param window - its messages, oldest first.
   * @param fromStart - whether it begins at the session's first message.
   */
  remember(sessionID: string, window: readonly MessageView[], fromStart: boolean): Promise<void>;
  forget(sessionID: string): void;
  /** Sessions remembered. */
  readonly size: number;
}

/** A reading in progress: told each page, it says when the rest is remembered. */
export interface Joining {
  /** Takes the next older page (oldest first within it); `true` once a page holds a remembered message. */
  take(page: readonly MessageView[]): boolean;
  /**
   * The conversation, once joined: the remembered messages older than every message of `read`, then those
   * of `read`, each as read unless its kept copy has the same key.
   *
   * @param read - every message the pages held, oldest first.
   * @returns `null` when no page joined.
   */
  conversation(read: readonly MessageView[]): { messages: MessageView[]; fromStart: boolean } | null;
}

interface Remembered {
  /** In the kept form. */
  messages: readonly MessageView[];
  /** Position of each message by id. */
  positions: ReadonlyMap<string, number>;
  fromStart: boolean;
  chars: number;
}

/** Messages copied in one clone at most: a group is one step of the host's thread. */
export const KEPT_GROUP_MESSAGES = 64;

/** Characters (text and bounded tool output) copied in one clone at most, about. */
export const KEPT_GROUP_CHARS = 64 * 1024;

/** Where the group of messages copied together that begins at `start` ends: one message at the least. */
function keptGroupEnd(window: readonly MessageView[], start: number): number {
  let chars = 0;
  let end = start;
  while (end < window.length && end - start < KEPT_GROUP_MESSAGES) {
    chars += Math.max(MESSAGE_FLOOR_CHARS, (window[end] as MessageView).weight);
    end += 1;
    if (chars >= KEPT_GROUP_CHARS) break;
  }
  return end;
}

/** A new, empty memory bounded by {@link WINDOW_MEMORY_CHARS} and {@link WINDOW_MEMORY_SESSIONS}. */
export function createWindowMemory(maxChars = WINDOW_MEMORY_CHARS): WindowMemory {
  const sessions = new LRUCache<string, Remembered>({ max: WINDOW_MEMORY_SESSIONS, maxSize: maxChars, sizeCalculation: (entry) => Math.max(1, entry.chars) });
  /** The latest `remember` of each session still in progress: an earlier one, or one for a session forgotten since, keeps nothing. */
  const keeping = new Map<string, symbol>();
  return {
    join(sessionID) {
      const entry = sessions.get(sessionID);
      if (!entry) return null;
      let joined = false;
      const remembered = (message: MessageView): number | undefined => (message.id === null ? undefined : entry.positions.get(message.id));
      return {
        take(page) {
          if (!joined) joined = page.some((message) => remembered(message) !== undefined);
          return joined;
        },
        conversation(read) {
          if (!joined) return null;
          // The pages are the newest part of the session as it is now: every remembered message they do not
          // hold is older than all of them, or was removed since.
          let oldest = Number.POSITIVE_INFINITY;
          const messages = read.map((message) => {
            const at = remembered(message);
            if (at === undefined) return message;
            oldest = Math.min(oldest, at);
            const kept = entry.messages[at];
            return kept !== undefined && message.key === kept.key ? kept : message;
          });
          if (oldest === Number.POSITIVE_INFINITY) return null;
          return { messages: [...entry.messages.slice(0, oldest), ...messages], fromStart: entry.fromStart };
        },
      };
    },
    async remember(sessionID, window, fromStart) {
      const token = Symbol(sessionID);
      keeping.set(sessionID, token);
      // Nothing runs before the caller's next await: the compacting hook returns first.
      await yieldToHost();
      const messages: MessageView[] = [];
      const positions = new Map<string, number>();
      let chars = 0;
      // The host's thread is handed back between slices: a window of 10 MB sessions holds hundreds of messages.
      const slicer = createTimeSlicer();
      for (let start = 0; start < window.length; ) {
        if (slicer.due) await slicer.yield();
        // A message kept before is its own kept copy: a window kept again is not copied again. Its key
        // comes along, hashed now if it was not yet, off the hook: the next compaction compares and
        // extracts with it. Copied a bounded group at a time, in one clone (see `keptCopies`).
        const end = keptGroupEnd(window, start);
        for (const kept of keptCopies(window.slice(start, end))) {
          if (kept.id !== null && !positions.has(kept.id)) positions.set(kept.id, messages.length);
          messages.push(kept);
          chars += kept.size;
        }
        start = end;
      }
      if (keeping.get(sessionID) !== token) return;
      keeping.delete(sessionID);
      // A window larger than the whole memory is not kept: the next compaction reads it again.
      if (chars > maxChars) {
        sessions.delete(sessionID);
        return;
      }
      sessions.set(sessionID, { messages, positions, fromStart, chars });
    },
    forget(sessionID) {
      keeping.delete(sessionID);
      sessions.delete(sessionID);
    },
    get size() {
      return sessions.size;
    },
  };
}
