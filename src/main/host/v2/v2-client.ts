/**
 * The host port's client over OpenCode 2.x. 2.x gives plugins no message
 * list: the compaction hook hands over the history it compacts, and
 * everything else is read from the service's HTTP API (`ctx.app.server`),
 * newest page first, turned into the 1.x paging the session reader speaks
 * (`limit`, `before`, the next cursor in a header). Prompting is two calls,
 * `prompt` then `wait`; the answer is the session's newest assistant message.
 * 2.x has no plugin call to start a session or a compaction, so the client
 * offers neither (goal frames say so).
 */
import { NEXT_CURSOR_HEADER } from '../../session/session-reader.js';
import { HOST_READ_DEADLINE_MS, type HostClient, type SdkResult } from '../host-client.js';
import type { LogClient } from '../../shared/logger.js';
import { storedMessages } from './v2-messages.js';
import { warmFetch } from './fetch-warm-up.js';
import type { V2App, V2MessagePage, V2Session } from './opencode-v2.js';

/** Messages read after `wait` to find the answer: the answer is the newest, a few may follow. */
export const ANSWER_PAGE_MESSAGES = 10;

/** Pages of the whole-list read (asked for only when paging failed), at most. */
export const MAX_WHOLE_LIST_PAGES = 1_000;

/** The history a running compaction hook handed over, by session. */
export type CompactionHistories = Map<string, readonly unknown[]>;

/** What the client needs of the 2.x context. */
export interface V2ClientParts {
  session: Pick<V2Session, 'prompt' | 'wait'>;
  app?: V2App;
  log: LogClient;
  histories: CompactionHistories;
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
}

type Page = SdkResult<unknown[]>;

function headers(next: string | undefined): NonNullable<Page['response']> {
  return { headers: { get: (name) => (name.toLowerCase() === NEXT_CURSOR_HEADER && next ? next : null) } };
}

/** A page of a history held in memory, as the HTTP list would page it: cursors are positions. */
function historyPage(list: readonly unknown[], limit: number | undefined, before: string | undefined): Page {
  const end = before === undefined ? list.length : Math.max(0, Math.min(list.length, Number.parseInt(before, 10) || 0));
  if (limit === undefined) return { data: list.slice(0, end) };
  const start = Math.max(0, end - limit);
  return { data: list.slice(start, end), response: headers(start > 0 ? String(start) : undefined) };
}

/**
 * The assistant message in what `wait` answered, when it holds one: a stored message, a model message,
 * `{ text }`, or any of them under `data` or `message`.
 *
 * @param waited - `wait`'s answer.
 * @param sessionID - names a message that carries no id.
 */
export function answerOf(waited: unknown, sessionID: string): unknown {
  for (let value = waited, depth = 0; depth < 3 && typeof value === 'object' && value !== null; depth += 1) {
    const record = value as Record<string, unknown>;
    if (typeof record['text'] === 'string' && record['text'] !== '') return { info: { id: `${sessionID}:answer`, role: 'assistant', sessionID }, parts: [{ type: 'text', text: record['text'] }] };
    const [stored] = storedMessages([record], sessionID);
    const role = (stored as { info?: { role?: unknown } } | undefined)?.info?.role;
    if (role === 'assistant') return stored;
    value = record['data'] ?? record['message'];
  }
  return null;
}

/**
 * @param parts - the 2.x context's parts the client uses.
 */
export function createV2Client(parts: V2ClientParts): HostClient {
  const { session, app, log, histories } = parts;
  const get = parts.fetch ?? globalThis.fetch;
  const converted = new WeakMap<readonly unknown[], unknown[]>();
  // Histories the service could not be read for: the rest of that compaction reads the history alone.
  const unread = new WeakSet<readonly unknown[]>();
  // The service is read with `get`: its first call's cost is paid now, not by the first compaction's first page.
  if (app?.server?.url) void warmFetch(get);

  async function httpPage(sessionID: string, query: Record<string, string>): Promise<{ data?: unknown[]; next?: string; error?: string }> {
    const server = app?.server;
    if (!server?.url) return { error: 'this OpenCode offers plugins no server to read messages from' };
    const url = new URL(`/api/session/${encodeURIComponent(sessionID)}/message`, server.url);
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
    const auth = Buffer.from(`opencode:${server.password ?? ''}`).toString('base64');
    const response = await get(url, { headers: { authorization: `Basic ${auth}` }, signal: AbortSignal.timeout(HOST_READ_DEADLINE_MS) });
    if (!response.ok) return { error: `GET ${url.pathname} answered ${response.status}` };
    const body = (await response.json()) as Partial<V2MessagePage> | null;
    if (!Array.isArray(body?.data)) return { error: `GET ${url.pathname} answered no list` };
    const next = body?.cursor?.next;
    return { data: body.data, next: typeof next === 'string' && next !== '' ? next : undefined };
  }

  function heldPage(held: readonly unknown[], sessionID: string, limit: number | undefined, before: string | undefined): Page {
    let list = converted.get(held);
    if (!list) {
      list = storedMessages(held, sessionID);
      converted.set(held, list);
    }
    return historyPage(list, limit, before);
  }

  /**
   * A compaction's reads. The service's stored session is read first, as 1.x reads it: it holds what the
   * model-bound history lacks (the turns before the last compaction, which summary was one). The history
   * the hook handed over serves when there is no service to read, or its first answer failed.
   */
  async function compactionMessages(held: readonly unknown[], sessionID: string, limit: number | undefined, before: string | undefined): Promise<Page> {
    if (!app?.server?.url || unread.has(held)) return heldPage(held, sessionID, limit, before);
    const read = await httpMessages(sessionID, limit, before).catch((error: unknown): Page => ({ error }));
    // A later page that fails makes the reader read the whole list, which comes here as a first read.
    if (read.error === undefined || before !== undefined) return read;
    unread.add(held);
    return heldPage(held, sessionID, limit, before);
  }

  async function httpMessages(sessionID: string, limit: number | undefined, before: string | undefined): Promise<Page> {
    if (limit !== undefined) {
      const page = await httpPage(sessionID, { limit: String(limit), order: 'desc', ...(before ? { cursor: before } : {}) });
      if (!page.data) return { error: page.error };
      // Newest first on the wire; the reader wants each page oldest first.
      return { data: storedMessages(page.data, sessionID).reverse(), response: headers(page.next) };
    }
    const all: unknown[] = [];
    let cursor: string | undefined;
    for (let index = 0; index < MAX_WHOLE_LIST_PAGES; index += 1) {
      const page = await httpPage(sessionID, { order: 'asc', ...(cursor ? { cursor } : {}) });
      if (!page.data) return index === 0 ? { error: page.error } : { data: storedMessages(all, sessionID) };
      all.push(...page.data);
      if (!page.next || page.next === cursor) break;
      cursor = page.next;
    }
    return { data: storedMessages(all, sessionID) };
  }

  async function messages(sessionID: string, limit: number | undefined, before: string | undefined): Promise<Page> {
    const held = histories.get(sessionID);
    if (held) return compactionMessages(held, sessionID, limit, before);
    try {
      return await httpMessages(sessionID, limit, before);
    } catch (error) {
      return { error };
    }
  }

  async function prompt(sessionID: string, text: string): Promise<Page | SdkResult<unknown>> {
    try {
      await session.prompt({ sessionID, prompt: { text } });
    } catch (error) {
      // Some 2.x builds take the text flat: the other form, once; the first refusal is the one told.
      await session.prompt({ sessionID, text }).catch(() => Promise.reject(error));
    }
    const waited = await session.wait({ sessionID });
    // Some builds answer `wait` with the reply itself: then nothing is read.
    const direct = answerOf(waited, sessionID);
    if (direct) return { data: direct };
    const newest = await messages(sessionID, ANSWER_PAGE_MESSAGES, undefined);
    const list = Array.isArray(newest.data) ? newest.data : [];
    for (let index = list.length - 1; index >= 0; index -= 1) {
      const info = (list[index] as { info?: { role?: unknown } } | undefined)?.info;
      if (info?.role === 'assistant') return { data: list[index] };
    }
    return { error: newest.error ?? 'the session has no answer after waiting for it' };
  }

  return {
    app: log.app,
    session: {
      messages: ({ path, query }) => messages(path.id, query?.limit, query?.before),
      prompt: ({ path, body }) =>
        prompt(
          path.id,
          body.parts.map((part) => part.text).join('\n'),
        ),
    },
  };
}
