/**
 * The window each session's last compaction read, kept as extraction reads
 * it (`readableMessage`), so that the next compaction of the session reads
 * only the pages written since.
 *
 * Pages come newest first. A reading stops at the newest message the memory
 * holds unchanged — same id, same text and tool output lengths (its unit
 * key) — and the conversation is then the remembered messages up to that
 * one, followed by the pages' messages after it. So messages removed since
 * (a revert) are dropped, and a message that changed (one still streaming at
 * the last compaction) is read again. A change to a message older than the
 * join is not seen: the host does not rewrite a finished message's text or
 * output. When the joined conversation no longer fills the window (a revert
 * further back than the remembered window reaches), the caller reads the
 * window again.
 */
import { performance } from 'node:perf_hooks';
import { setImmediate as yieldToHost } from 'node:timers/promises';
import { LRUCache } from 'lru-cache';
import { messageToUnit, readableMessage } from './session-units.js';
import { messageWeight } from './conversation-window.js';

/** Characters (text and bounded tool output) kept over all sessions: a few windows. */
export const WINDOW_MEMORY_CHARS = 8 * 1024 * 1024;

/** Sessions kept at most. */
export const WINDOW_MEMORY_SESSIONS = 16;

/** The host's thread is handed back at least this often while a window is kept. */
const SLICE_MS = 4;

/** Characters a message counts for besides its text: ids and the shape around them. */
const MESSAGE_OVERHEAD_CHARS = 200;

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
  remember(sessionID: string, window: readonly unknown[], fromStart: boolean): Promise<void>;
  forget(sessionID: string): void;
  /** Sessions remembered. */
  readonly size: number;
}

/** A reading in progress: told each page, it says when the rest is remembered. */
export interface Joining {
  /** Takes the next older page (oldest first within it); `true` once a page holds a remembered message. */
  take(page: readonly unknown[]): boolean;
  /**
   * The conversation, once joined: the remembered messages up to the join, then those of `read` after it.
   *
   * @param read - every message the pages held, oldest first.
   * @returns `null` when no page joined.
   */
  conversation(read: readonly unknown[]): { messages: unknown[]; fromStart: boolean } | null;
}

interface Remembered {
  messages: readonly unknown[];
  /** Position of each message by unit key. */
  positions: ReadonlyMap<string, number>;
  fromStart: boolean;
  chars: number;
}

/** A message's unit key, without building its text. */
function keyOf(message: unknown): string | null {
  return messageToUnit(message, 0, () => true)?.key ?? null;
}

/** A new, empty memory bounded by {@link WINDOW_MEMORY_CHARS} and {@link WINDOW_MEMORY_SESSIONS}. */
export function createWindowMemory(maxChars = WINDOW_MEMORY_CHARS): WindowMemory {
  const sessions = new LRUCache<string, Remembered>({ max: WINDOW_MEMORY_SESSIONS, maxSize: maxChars, sizeCalculation: (entry) => Math.max(1, entry.chars) });
  /** Messages already in the kept form, so a window kept again is not copied again. */
  const readable = new WeakSet<object>();
  /** The latest `remember` of each session still in progress: an earlier one, or one for a session forgotten since, keeps nothing. */
  const keeping = new Map<string, symbol>();
  return {
    join(sessionID) {
      const entry = sessions.get(sessionID);
      if (!entry) return null;
      let newer = 0;
      let joined: { at: number; after: number } | null = null;
      return {
        take(page) {
          if (joined) return true;
          for (let index = page.length - 1; index >= 0; index--) {
            const key = keyOf(page[index]);
            const at = key === null ? undefined : entry.positions.get(key);
            if (at === undefined) continue;
            joined = { at, after: newer + (page.length - 1 - index) };
            return true;
          }
          newer += page.length;
          return false;
        },
        conversation(read) {
          if (!joined) return null;
          const after = read.slice(Math.max(0, read.length - joined.after));
          return { messages: [...entry.messages.slice(0, joined.at + 1), ...after], fromStart: entry.fromStart };
        },
      };
    },
    async remember(sessionID, window, fromStart) {
      const token = Symbol(sessionID);
      keeping.set(sessionID, token);
      // Nothing runs before the caller's next await: the compacting hook returns first.
      await yieldToHost();
      const messages: unknown[] = [];
      const positions = new Map<string, number>();
      let chars = 0;
      let slice = performance.now();
      for (const [index, message] of window.entries()) {
        // The host's thread is handed back between slices: a window of 10 MB sessions holds hundreds of messages.
        if (performance.now() - slice > SLICE_MS) {
          await yieldToHost();
          slice = performance.now();
        }
        let kept = message;
        if (typeof message !== 'object' || message === null || !readable.has(message)) {
          kept = readableMessage(message);
          if (typeof kept === 'object' && kept !== null) readable.add(kept);
        }
        messages.push(kept);
        const key = keyOf(kept);
        if (key !== null) positions.set(key, index);
        chars += messageWeight(kept) + MESSAGE_OVERHEAD_CHARS;
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
