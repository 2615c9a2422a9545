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
 *
 * A host's paging is not trusted to be sound. Every page, and the whole
 * list, keeps one copy of each message id, so a page that repeats messages
 * adds none twice; a cursor seen before (pages that loop), or a page of
 * nothing new, ends paging. Paging is bounded in pages
 * ({@link MAX_SESSION_PAGES}), each page has its own deadline, and paging as
 * a whole may use only part of the budget: the rest is kept for the whole
 * list, so a page that never answers still leaves the fallback its time.
 */
import { createTimeSlicer, yieldToHost } from '../../core/text/time-slicer.js';
import { withDeadline, type DeadlineResult } from '../shared/deadline.js';
import type { HostClient, SdkResult } from '../host/host-client.js';
import { readMessage, type MessageView } from './message-view.js';

/**
 * Characters of text and tool input and output a page holds, about: the host serialises a page and the plugin's
 * client parses it on the host's thread, about 2 ms for this much on a 2-core machine. The first page
 * asks for {@link FIRST_PAGE_MESSAGES}; each later one for as many messages as this holds at the
 * session's mean so far.
 */
export const PAGE_TARGET_CHARS = 64 * 1024;

/** Messages on the first page, before anything is known of the session's messages. */
export const FIRST_PAGE_MESSAGES = 20;

/**
 * Messages a page holds at least: a session of huge messages still moves (a bare message counts
 * `MESSAGE_METADATA_CHARS`, 500 characters, so at most 131).
 */
export const MIN_PAGE_MESSAGES = 4;

/** Pages read before giving up on paging and reading the whole list: 8,000 messages at the least. */
export const MAX_SESSION_PAGES = 2_000;

/** Share of the budget one page may take by default: a page that never answers leaves the rest. */
export const PAGE_DEADLINE_SHARE = 0.25;

/** Share of the budget kept for the whole-list read by default: paging stops once the rest is spent. */
export const FALLBACK_SHARE = 0.5;

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
  enough?: (page: readonly MessageView[]) => boolean;
  /**
   * When `maxPages` pages were read and `enough` never answered `true`: the messages read so far
   * (`true`), or the whole list in one read (`false`, for a caller that needs all of it).
   * @default false
   */
  partial?: boolean;
  /** How long one page may take; past it, paging ends and the whole list is read. @default deadlineMs × PAGE_DEADLINE_SHARE */
  pageDeadlineMs?: number;
  /** Share of `deadlineMs` that paging leaves for the whole-list read, between 0 and 1. @default FALLBACK_SHARE */
  fallbackShare?: number;
  /** Told, in one line, why paging ended before its last page: a cursor seen before, a page of nothing new, a page past its deadline. */
  warn?: (line: string) => void;
}

/** Why paging gave way to the whole list, when it says more than a failed or absent page. */
type Paged = { kind: 'complete'; messages: MessageView[] } | { kind: 'unavailable'; why?: string };

/** The cursor of the next older page, when the host sent one. */
function nextCursor(result: SdkResult<unknown[]> | undefined): string | undefined {
  const cursor = result?.response?.headers?.get?.(NEXT_CURSOR_HEADER);
  return typeof cursor === 'string' && cursor !== '' ? cursor : undefined;
}

/**
 * The messages of `list` whose id `seen` does not hold yet, in order, each id once and each read once
 * (entries that are not messages are left out); `seen` takes their ids. Walked newest first, as pages
 * come, so the newest copy of a message listed twice is kept; in slices of the host's thread, since the
 * whole list of a 10 MB session holds thousands of messages.
 */
async function unseen(list: readonly unknown[], seen: Set<string>): Promise<MessageView[]> {
  const kept: MessageView[] = [];
  const slicer = createTimeSlicer();
  for (let index = list.length - 1; index >= 0; index--) {
    if (slicer.due) await slicer.yield();
    const message = readMessage(list[index]);
    if (message === null) continue;
    if (message.id !== null) {
      if (seen.has(message.id)) continue;
      seen.add(message.id);
    }
    kept.push(message);
  }
  return kept.reverse();
}

/** Page sizes: fixed when the caller names one, else sized to {@link PAGE_TARGET_CHARS} at the mean so far. */
function pageSizer(fixed: number | undefined): { next(): number; saw(page: readonly MessageView[]): void } {
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
      // What the host serialised for each: its size, not the share extraction reads (its weight).
      for (const message of page) chars += message.size;
    },
  };
}

/** How a paged read is bounded: pages, one page's deadline, and a signal that ends paging when its time is spent. */
interface PagingBounds {
  maxPages: number;
  pageMs: number;
  stop: AbortSignal;
}

async function readPages(host: HostClient, id: string, bounds: PagingBounds, fixedSize: number | undefined, enough: (page: readonly MessageView[]) => boolean, partial: boolean): Promise<Paged> {
  const pages: MessageView[][] = [];
  const sizes = pageSizer(fixedSize);
  const seen = new Set<string>();
  const cursors = new Set<string>();
  let before: string | undefined;
  for (let index = 0; index < bounds.maxPages; index += 1) {
    // The host's thread serves what is waiting before the next page.
    if (index > 0) await yieldToHost();
    if (bounds.stop.aborted) return { kind: 'unavailable' };
    const pageSize = sizes.next();
    const query = before === undefined ? { limit: pageSize } : { limit: pageSize, before };
    const result = await withDeadline(Promise.resolve(host.session.messages({ path: { id }, query })), bounds.pageMs);
    if (bounds.stop.aborted) return { kind: 'unavailable' };
    if (!result.done) return result.reason === 'timeout' ? { kind: 'unavailable', why: `page ${index + 1} did not answer within ${Math.round(bounds.pageMs)} ms` } : { kind: 'unavailable' };
    const data = result.value?.data;
    if (!Array.isArray(data)) return { kind: 'unavailable' };
    const cursor = nextCursor(result.value);
    const fresh = await unseen(data, seen);
    if (index === 0 && cursor === undefined) {
      // More than a page: the host ignored `limit` and sent the whole list. Fewer: the session fits in
      // one page, which the caller is told of as of any page. Exactly a page and no cursor cannot be
      // told from a host that hides its headers.
      if (data.length === pageSize) return { kind: 'unavailable' };
      if (data.length < pageSize) enough(fresh);
      return { kind: 'complete', messages: fresh };
    }
    pages.push(fresh);
    sizes.saw(fresh);
    if (cursor === undefined || enough(fresh)) return { kind: 'complete', messages: pages.reverse().flat() };
    // A cursor that comes back would read the same pages again until maxPages; a page of nothing new moves nowhere.
    if (cursor === before || cursors.has(cursor)) return { kind: 'unavailable', why: `the cursor after page ${index + 1} was seen before` };
    if (fresh.length === 0) return { kind: 'unavailable', why: `page ${index + 1} held only messages already read` };
    cursors.add(cursor);
    before = cursor;
  }
  return partial ? { kind: 'complete', messages: pages.reverse().flat() } : { kind: 'unavailable' };
}

/**
 * A session's messages, oldest first, read page by page within `deadlineMs`;
 * the whole list in one read when the host does not page or a page fails.
 * Each message is read once, as it arrives ({@link readMessage}): every later
 * step asks its view.
 * Resolves like {@link withDeadline} over `session.messages`: a timeout, a
 * throw, or the host's `{ data, error }`.
 *
 * @param host - the host's client.
 * @param sessionID - the session to read.
 * @param deadlineMs - the budget for all pages and any fallback read together; paging may use only
 *   part of it (see {@link SessionReadOptions.fallbackShare}).
 * @param options - page size and page count; see {@link SessionReadOptions}.
 */
export async function readSessionMessages(host: HostClient, sessionID: string, deadlineMs: number, options: SessionReadOptions = {}): Promise<DeadlineResult<SdkResult<MessageView[]>>> {
  // One timer for the whole read and one for paging: every later step is bounded by them, whatever the clock says.
  const read = await withDeadline(readWithin(host, sessionID, deadlineMs, options), deadlineMs);
  return read.done ? read.value : read;
}

async function readWithin(host: HostClient, sessionID: string, deadlineMs: number, options: SessionReadOptions): Promise<DeadlineResult<SdkResult<MessageView[]>>> {
  const share = Math.min(1, Math.max(0, options.fallbackShare ?? FALLBACK_SHARE));
  const pagingMs = deadlineMs * (1 - share);
  const paging = new AbortController();
  const bounds: PagingBounds = { maxPages: options.maxPages ?? MAX_SESSION_PAGES, pageMs: options.pageDeadlineMs ?? deadlineMs * PAGE_DEADLINE_SHARE, stop: paging.signal };
  const paged = await withDeadline(readPages(host, sessionID, bounds, options.pageSize, options.enough ?? (() => false), options.partial ?? false), pagingMs, paging);
  if (paged.done && paged.value.kind === 'complete') return { done: true, value: { data: paged.value.messages } };
  const why = !paged.done ? (paged.reason === 'timeout' ? `paging used its ${Math.round(pagingMs)} ms` : undefined) : paged.value.kind === 'unavailable' ? paged.value.why : undefined;
  if (why !== undefined) options.warn?.(`session ${sessionID}: ${why}; reading the whole list`);
  // No paging here, or a page failed: the whole list, in what is left of the budget, each message once.
  let whole: SdkResult<unknown[]>;
  try {
    whole = await host.session.messages({ path: { id: sessionID } });
  } catch (error) {
    return { done: false, reason: 'failed', error };
  }
  if (!Array.isArray(whole?.data)) return { done: true, value: { ...whole, data: undefined } };
  return { done: true, value: { ...whole, data: await unseen(whole.data, new Set()) } };
}
