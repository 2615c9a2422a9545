/**
 * The part of a conversation a compaction reads: the messages since the
 * latest compaction summary, and never less than the newest `minChars` nor
 * more than the newest `maxChars` of text and tool output.
 *
 * The host sends the model only what follows its latest summary, and that
 * summary carries forward what came before; every earlier compaction was
 * extracted and written to the graph when it happened. Reading the whole
 * history again on every compaction would make its cost grow with the
 * session's age rather than with what is new: a 10 MB session with forty
 * summaries would be read in full forty times. The floor keeps a session
 * that compacted a moment ago from being judged on a few messages; the cap
 * bounds a long session that never compacted (the host prunes old tool
 * output instead, so more than a context window of messages can follow the
 * last summary). A message costs the extraction something however short it
 * is (its view, its key, its pass in a worker, its copy across the thread),
 * so each counts for at least {@link MESSAGE_FLOOR_CHARS}: a window of tiny
 * messages holds at most `maxChars / MESSAGE_FLOOR_CHARS` of them (16,384
 * with the defaults), not every message of the newest megabyte.
 */
import { readMessage, type MessageView } from '../session/message-view.js';

/** The bounds of a window, in characters of message text and bounded tool output. */
export interface WindowLimits {
  /** Read at least this much, summaries or not: about 64K tokens, half a common context window. */
  minChars: number;
  /** Read at most this much, back to a summary or not: about 256K tokens, more than most context windows hold. */
  maxChars: number;
  /**
   * What one message counts for at most: a pasted log or a tool's flood of output must not push every
   * other message out of the window. With the defaults the window holds at least 4 messages back to
   * a summary and 16 in all.
   */
  messageChars: number;
}

/** What the shortest message counts for in a window: about what its analysis costs beyond its text. */
export const MESSAGE_FLOOR_CHARS = 64;

/** The defaults the compacting hook uses. */
export const DEFAULT_WINDOW_LIMITS: Readonly<WindowLimits> = Object.freeze({
  minChars: 256 * 1024,
  maxChars: 1024 * 1024,
  messageChars: 64 * 1024,
});

/** No bound at all: every message is read. */
export const WHOLE_CONVERSATION: Readonly<WindowLimits> = Object.freeze({
  minChars: Number.POSITIVE_INFINITY,
  maxChars: Number.POSITIVE_INFINITY,
  messageChars: Number.POSITIVE_INFINITY,
});

/** Reads a conversation from its newest message back and says when the window is whole. */
export interface WindowScan {
  /**
   * Takes the next older messages, in conversation order (oldest first).
   *
   * @returns how many of them, counted from the end, belong to the window; all of them while it is not yet whole.
   */
  take(older: readonly MessageView[]): number;
  /** Whether the window is whole: nothing older belongs to it. */
  readonly whole: boolean;
}

/** A scan with `limits`; see {@link WindowScan}. */
export function createWindowScan(limits: WindowLimits = DEFAULT_WINDOW_LIMITS): WindowScan {
  let chars = 0;
  let summarized = false;
  let whole = false;
  return {
    take(older) {
      if (whole) return 0;
      for (let index = older.length - 1; index >= 0; index--) {
        const message = older[index];
        if (message === undefined) continue;
        chars += Math.max(MESSAGE_FLOOR_CHARS, Math.min(message.weight, limits.messageChars));
        if (message.summary) summarized = true;
        if (chars >= limits.maxChars || (summarized && chars >= limits.minChars)) {
          whole = true;
          return older.length - index;
        }
      }
      return older.length;
    },
    get whole() {
      return whole;
    },
  };
}

/**
 * Where the window of a message list starts.
 *
 * @param messages - the conversation, oldest first.
 * @param limits - see {@link WindowLimits}.
 * @returns the index of the window's first message (0 when it is the whole list).
 */
export function windowStart(messages: readonly MessageView[], limits: WindowLimits = DEFAULT_WINDOW_LIMITS): number {
  return messages.length - createWindowScan(limits).take(messages);
}

/**
 * The window of a list of host entries, each read once, newest first and only as far back as the window
 * reaches: entries older than it are never read. An entry that is not a message weighs nothing.
 *
 * @param entries - the conversation, oldest first: messages as the host sends them, or their views.
 * @param limits - see {@link WindowLimits}.
 * @returns `first`, the index of the window's first entry, and `views`, the view of each entry from it on
 *   (`null` where an entry is not a message).
 */
export function readWindow(entries: readonly unknown[], limits: WindowLimits = DEFAULT_WINDOW_LIMITS): { first: number; views: (MessageView | null)[] } {
  const scan = createWindowScan(limits);
  const views: (MessageView | null)[] = [];
  let first = entries.length;
  while (first > 0 && !scan.whole) {
    const view = readMessage(entries[first - 1]);
    // While the window is not whole, every message taken belongs to it, the one that makes it whole too.
    if (view !== null) scan.take([view]);
    views.push(view);
    first -= 1;
  }
  return { first, views: views.reverse() };
}
