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
 * Messages asked for per page: about 350 KB of a busy session (OpenCode
 * truncates a tool's output, so one message stays small).
 */
export const SESSION_PAGE_MESSAGES = 100;

/** Pages read before giving up on paging and reading the whole list: 200,000 messages. */
export const MAX_SESSION_PAGES = 2_000;

/** The response header that holds the cursor of the next, older page. */
export const NEXT_CURSOR_HEADER = 'x-next-cursor';

/** Options of {@link readSessionMessages}. */
export interface SessionReadOptions {
  /** Messages per page. @default SESSION_PAGE_MESSAGES */
  pageSize?: number;
  /** Pages read before falling back to the whole list. @default MAX_SESSION_PAGES */
  maxPages?: number;
  /**
   * Told each page as it arrives (oldest first within the page, pages newest first); once it
   * answers `true`, no older page is read and the messages so far are the answer.
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

async function readPages(host: HostClient, id: string, left: () => number, pageSize: number, maxPages: number, enough: (page: readonly unknown[]) => boolean, partial: boolean): Promise<Paged> {
  const pages: unknown[][] = [];
  let before: string | undefined;
  for (let index = 0; index < maxPages; index += 1) {
    // The host's thread serves what is waiting before the next page.
    if (index > 0) await yieldToHost();
    if (left() <= 0) return { kind: 'timeout' };
    const query = before === undefined ? { limit: pageSize } : { limit: pageSize, before };
    const result = await withDeadline(Promise.resolve(host.session.messages({ path: { id }, query })), left());
    if (!result.done) return result.reason === 'timeout' ? { kind: 'timeout' } : { kind: 'unavailable' };
    const data = result.value?.data;
    if (!Array.isArray(data)) return { kind: 'unavailable' };
    const cursor = nextCursor(result.value);
    if (index === 0 && cursor === undefined) {
      // More than a page: the host ignored `limit` and sent the whole list. Fewer: the session fits in
      // one page. Exactly a page and no cursor cannot be told from a host that hides its headers.
      return data.length === pageSize ? { kind: 'unavailable' } : { kind: 'complete', messages: data };
    }
    pages.push(data);
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
  const paged = await readPages(host, sessionID, left, options.pageSize ?? SESSION_PAGE_MESSAGES, options.maxPages ?? MAX_SESSION_PAGES, options.enough ?? (() => false), options.partial ?? false);
  if (paged.kind === 'complete') return { done: true, value: { data: paged.messages } };
  if (paged.kind === 'timeout') return { done: false, reason: 'timeout' };
  // No paging here, or a page failed: the whole list, in what is left of the budget.
  return withDeadline(Promise.resolve(host.session.messages({ path: { id: sessionID } })), left());
}
