/**
 * The window each session's last compaction read, kept as extraction reads
 * it (`readableMessage`), so that the next compaction of the session reads
 * only the pages written since.
 *
 * Pages come newest first. A reading stops at the first page that holds a
 * message the memory holds (by id), and the conversation is then the
 * remembered messages older than the oldest message the pages hold, followed
 * by every message the pages hold. So messages removed since (a revert) are
 * dropped, and the host's copy wins wherever the pages reach: a re-read
 * message whose key (its id and a hash of its content, `messageToUnit`)
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
import { performance } from 'node:perf_hooks';
import { setImmediate as yieldToHost } from 'node:timers/promises';
import { LRUCache } from 'lru-cache';
import { isRecord, messageToUnit, readableMessage } from './session-units.js';
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
   * The conversation, once joined: the remembered messages older than every message of `read`, then those
   * of `read`, each as read unless its kept copy has the same key.
   *
   * @param read - every message the pages held, oldest first.
   * @returns `null` when no page joined.
   */
  conversation(read: readonly unknown[]): { messages: unknown[]; fromStart: boolean } | null;
}

interface Remembered {
  messages: readonly unknown[];
  /** Position of each message by id. */
  positions: ReadonlyMap<string, number>;
  fromStart: boolean;
  chars: number;
}

/** A message's unit key, without building its text. */
function keyOf(message: unknown): string | null {
  return messageToUnit(message, 0, () => true)?.key ?? null;
}

/** A message's id, or `null` when it has none. */
function idOf(message: unknown): string | null {
  if (!isRecord(message) || !isRecord(message['info'])) return null;
  const id = message['info']['id'];
  return typeof id === 'string' ? id : null;
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
      let joined = false;
      const remembered = (message: unknown): number | undefined => {
        const id = idOf(message);
        return id === null ? undefined : entry.positions.get(id);
      };
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
            return keyOf(message) === keyOf(kept) ? kept : message;
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
        const id = idOf(kept);
        if (id !== null && !positions.has(id)) positions.set(id, index);
        // Its key now, off the hook: the next compaction compares and extracts with it.
        keyOf(kept);
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
