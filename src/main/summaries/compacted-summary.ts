/**
 * The summary a compaction stored, read once for every handler of
 * `session.compacted` (the summary chain and goal frames).
 *
 * OpenCode publishes the event after it stored the summary as the session's
 * newest assistant message (`summary: true`), so the newest messages hold it:
 * the reader asks for a few at a time, newest first, and stops at the first
 * summary, instead of listing the whole session on the host's thread (one
 * list of a 10 MB session is one 10 MB serialisation and parse there, 100 ms
 * and more). Both handlers start their work from the same event, so a read
 * still under way for one serves the other; a read that has ended is not
 * kept, since the next compaction of the session stores a new summary. A
 * host that sends the summary with its event (2.x) is not read at all.
 */
import { errorText } from '../shared/logger.js';
import { HOST_READ_DEADLINE_MS, type HostClient } from '../host/host-client.js';
import { readSessionMessages } from '../session/session-reader.js';
import type { MessageView } from '../session/message-view.js';

/** Messages asked for per page: the summary is the newest, a few replies may follow it. */
export const SUMMARY_PAGE_MESSAGES = 10;

/** Pages read before concluding the session has no recent summary: its newest 100 messages. */
export const SUMMARY_MAX_PAGES = 10;

/** What a read found. */
export type SummaryRead = { kind: 'found'; text: string } | { kind: 'none' } | { kind: 'failed'; why: string };

/** Reads the newest compaction summary of a session. */
export interface CompactedSummaries {
  /**
   * The newest summary among the session's newest messages, or `given` when the host sent the
   * summary's text with its event (2.x does): then nothing is read. Never rejects.
   */
  latest(sessionID: string, given?: unknown): Promise<SummaryRead>;
}

/** Settings of {@link createCompactedSummaries}. */
export interface CompactedSummariesSettings {
  /** The budget of one read, every page included. @default HOST_READ_DEADLINE_MS */
  deadlineMs?: number;
}

/**
 * The text of the last compaction summary of a message list (`MessageView.summary`), or `null`: its
 * conversation text, without the parts the host or a plugin added (synthetic or ignored).
 *
 * @param messages - read messages, oldest first.
 */
export function lastSummaryText(messages: readonly MessageView[]): string | null {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (!message?.summary) continue;
    const text = message.text.trim();
    if (text) return text;
  }
  return null;
}

/**
 * @param host - the host's client.
 * @param settings - see {@link CompactedSummariesSettings}.
 */
export function createCompactedSummaries(host: HostClient, settings: CompactedSummariesSettings = {}): CompactedSummaries {
  const deadlineMs = settings.deadlineMs ?? HOST_READ_DEADLINE_MS;
  const underWay = new Map<string, Promise<SummaryRead>>();

  async function read(sessionID: string): Promise<SummaryRead> {
    try {
      const listed = await readSessionMessages(host, sessionID, deadlineMs, {
        pageSize: SUMMARY_PAGE_MESSAGES,
        maxPages: SUMMARY_MAX_PAGES,
        partial: true,
        enough: (page) => page.some((message) => message.summary),
      });
      if (!listed.done) {
        return { kind: 'failed', why: listed.reason === 'timeout' ? `did not answer within ${deadlineMs} ms` : `failed: ${errorText(listed.error)}` };
      }
      const { data, error } = listed.value ?? {};
      if (!Array.isArray(data)) return { kind: 'failed', why: `answered no list${error ? ` (${errorText(error)})` : ''}` };
      const text = lastSummaryText(data);
      return text === null ? { kind: 'none' } : { kind: 'found', text };
    } catch (error) {
      return { kind: 'failed', why: `failed: ${errorText(error)}` };
    }
  }

  return {
    latest(sessionID, given) {
      if (typeof given === 'string' && given.trim() !== '') return Promise.resolve({ kind: 'found', text: given.trim() });
      const known = underWay.get(sessionID);
      if (known) return known;
      const reading = read(sessionID).finally(() => underWay.delete(sessionID));
      underWay.set(sessionID, reading);
      return reading;
    },
  };
}
