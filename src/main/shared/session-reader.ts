/**
 * Reading a session in bounded slices, for the compacting hook (the
 * conversation's window) and for the readers of a compaction's summary and a
 * frame's model (the newest messages only). The host
 * answers the plugin's client on its own thread, so one read of a 10 MB
 * session is one 10 MB serialisation and parse there. OpenCode 1.18.33 pages
 * `GET /session/{id}/message`: `limit` gives the newest messages, oldest
 * first, and the `X-Next-Cursor` header is the `before` of the next older
 * page, absent on the last. Reading page by page, yielding between pages,
 * keeps each step to one page, and reading stops once the caller has what
 * it needs (the conversation's window); a host without paging, or a page
 * that fails, falls back to the whole list in the time that is left.
 */
import { performance } from 'node:perf_hooks';
import { setImmediate as yieldToHost } from 'node:timers/promises';
import { withDeadline, type DeadlineResult } from './deadline.js';
import type { HostClient, SdkResult } from './host-client.js';

/**
 * Characters of text and tool input and output a page holds, about: the host serialises a page and the plugin's
 * client parses it on the host's thread, about 2 ms for this much on a 2-core machine. The first page
 * asks for {@link FIRST_PAGE_MESSAGES}; each later one for as many messages as this holds at the
 * session's mean so far.
 */
export const PAGE_TARGET_CHARS = 64 * 1024;

/** Messages on the first page, before anything is known of the session's messages. */
export const FIRST_PAGE_MESSAGES = 20;

/** Messages a page holds at least: a session of huge messages still moves (a bare message counts 500 characters, so at most 131). */
export const MIN_PAGE_MESSAGES = 4;

/** Characters a message's metadata counts for: ids, times, tokens and the model, as the host sends them. */
const MESSAGE_METADATA_CHARS = 500;

/** Pages read before giving up on paging and reading the whole list: 8,000 messages at the least. */
export const MAX_SESSION_PAGES = 2_000;

/** The response header that holds the cursor of the next, older page. */
export const NEXT_CURSOR_HEADER = 'x-next-cursor';

/** Options of {@link readSessionMessages}. */
export interface SessionReadOptions {
  /** Messages per page; by default sized to {@link PAGE_TARGET_CHARS}. */
  pageSize?: number;
  /** Pages read before falling back to the whole list. @default MAX_SESSION_PAGES */
  maxPages?: number;
  /**
   * Told each page as it arrives (oldest first within the page, pages newest first), a session's only
   * page too, never the whole list of a host that does not page; once it answers `true`, no older page
   * is read and the messages so far are the answer.
   */
  enough?: (page: readonly unknown[]) => boolean;
  /**
   * When `maxPages` pages were read and `enough` never answered `true`: the messages read so far
   * (`true`), or the whole list in one read (`false`, for a caller that needs all of it).
   * @default false
   */
  partial?: boolean;
}

type Paged = { kind: 'complete'; messages: unknown[] } | { kind: 'timeout' } | { kind: 'unavailable' };

/** The cursor of the next older page, when the host sent one. */
function nextCursor(result: SdkResult<unknown[]> | undefined): string | undefined {
  const cursor = result?.response?.headers?.get?.(NEXT_CURSOR_HEADER);
  return typeof cursor === 'string' && cursor !== '' ? cursor : undefined;
}

function textChars(value: unknown): number {
  return typeof value === 'string' ? value.length : 0;
}

/** Characters of the strings an edit or a write carries in its input (its top-level values only). */
function inputChars(input: unknown): number {
  if (typeof input !== 'object' || input === null) return 0;
  let chars = 0;
  for (const value of Object.values(input)) chars += textChars(value);
  return chars;
}

/** Characters of a message's text, tool input and output, and metadata, counted without serialising it. */
function messageChars(message: unknown): number {
  let chars = MESSAGE_METADATA_CHARS;
  const parts = typeof message === 'object' && message !== null ? (message as { parts?: unknown }).parts : undefined;
  if (!Array.isArray(parts)) return chars;
  for (const part of parts) {
    if (typeof part !== 'object' || part === null) continue;
    const { text, state } = part as { text?: unknown; state?: unknown };
    chars += textChars(text);
    if (typeof state !== 'object' || state === null) continue;
    const { input, output, error } = state as { input?: unknown; output?: unknown; error?: unknown };
    chars += inputChars(input) + textChars(output) + textChars(error);
  }
  return chars;
}

/** Page sizes: fixed when the caller names one, else sized to {@link PAGE_TARGET_CHARS} at the mean so far. */
function pageSizer(fixed: number | undefined): { next(): number; saw(page: readonly unknown[]): void } {
  let messages = 0;
  let chars = 0;
  return {
    next() {
      if (fixed !== undefined) return fixed;
      if (messages === 0) return FIRST_PAGE_MESSAGES;
      return Math.max(MIN_PAGE_MESSAGES, Math.round(PAGE_TARGET_CHARS / (chars / messages)));
    },
    saw(page) {
      if (fixed !== undefined) return;
      messages += page.length;
      for (const message of page) chars += messageChars(message);
    },
  };
}

async function readPages(host: HostClient, id: string, left: () => number, fixedSize: number | undefined, maxPages: number, enough: (page: readonly unknown[]) => boolean, partial: boolean): Promise<Paged> {
  const pages: unknown[][] = [];
  const sizes = pageSizer(fixedSize);
  let before: string | undefined;
  for (let index = 0; index < maxPages; index += 1) {
    // The host's thread serves what is waiting before the next page.
    if (index > 0) await yieldToHost();
    if (left() <= 0) return { kind: 'timeout' };
    const pageSize = sizes.next();
    const query = before === undefined ? { limit: pageSize } : { limit: pageSize, before };
    const result = await withDeadline(Promise.resolve(host.session.messages({ path: { id }, query })), left());
    if (!result.done) return result.reason === 'timeout' ? { kind: 'timeout' } : { kind: 'unavailable' };
    const data = result.value?.data;
    if (!Array.isArray(data)) return { kind: 'unavailable' };
    const cursor = nextCursor(result.value);
    if (index === 0 && cursor === undefined) {
      // More than a page: the host ignored `limit` and sent the whole list. Fewer: the session fits in
      // one page, which the caller is told of as of any page. Exactly a page and no cursor cannot be
      // told from a host that hides its headers.
      if (data.length === pageSize) return { kind: 'unavailable' };
      if (data.length < pageSize) enough(data);
      return { kind: 'complete', messages: data };
    }
    pages.push(data);
    sizes.saw(data);
    if (cursor === undefined || enough(data)) return { kind: 'complete', messages: pages.reverse().flat() };
    // A cursor that does not move would read the same page until maxPages.
    if (cursor === before) return { kind: 'unavailable' };
    before = cursor;
  }
  return partial ? { kind: 'complete', messages: pages.reverse().flat() } : { kind: 'unavailable' };
}

/**
 * A session's messages, oldest first, read page by page within `deadlineMs`;
 * the whole list in one read when the host does not page or a page fails.
 * Resolves like {@link withDeadline} over `session.messages`: a timeout, a
 * throw, or the host's `{ data, error }`.
 *
 * @param host - the host's client.
 * @param sessionID - the session to read.
 * @param deadlineMs - the budget for all pages and any fallback read together.
 * @param options - page size and page count; see {@link SessionReadOptions}.
 */
export async function readSessionMessages(host: HostClient, sessionID: string, deadlineMs: number, options: SessionReadOptions = {}): Promise<DeadlineResult<SdkResult<unknown[]>>> {
  const start = performance.now();
  const left = (): number => Math.max(0, deadlineMs - (performance.now() - start));
  const paged = await readPages(host, sessionID, left, options.pageSize, options.maxPages ?? MAX_SESSION_PAGES, options.enough ?? (() => false), options.partial ?? false);
  if (paged.kind === 'complete') return { done: true, value: { data: paged.messages } };
  if (paged.kind === 'timeout') return { done: false, reason: 'timeout' };
  // No paging here, or a page failed: the whole list, in what is left of the budget.
  return withDeadline(Promise.resolve(host.session.messages({ path: { id: sessionID } })), left());
}
