/**
 * A fake OpenCode SDK client for hook tests: serves message lists, scripts
 * the replies to `session.prompt`, and records every log line. Its shapes
 * follow opencode-plugin-api.md (calls resolve to `{ data, error }`).
 */
import type { HostClient, SdkResult } from '../src/main/host/host-client.js';

/** A paged read's query: `limit`, and the cursor of the page it continues from. */
export interface PageQuery {
  limit: number;
  before?: string;
}

/**
 * Answers a paged read in place of the fake's own paging: called with the query, the session's messages and
 * the number of paged reads of the session so far (1 for the first); `undefined` pages as usual.
 */
export type PageScript = (query: PageQuery, all: unknown[], call: number) => Promise<SdkResult<unknown[]>> | SdkResult<unknown[]> | undefined;

/** Response headers holding the next cursor as OpenCode 1.18.33 sends it (`null`: the last page). */
export function cursorHeaders(next: string | null): { headers: { get(name: string): string | null } } {
  return { headers: { get: (name: string) => (name.toLowerCase() === 'x-next-cursor' ? next : null) } };
}

/** A log line as the plugin sent it. */
export interface LoggedLine {
  service: string;
  level: string;
  message: string;
  extra?: Record<string, unknown>;
}

/** The fake and what it saw. Message lists page as OpenCode 1.18.33's do when asked with `limit`. */
export interface FakeHost {
  client: HostClient;
  logs: LoggedLine[];
  prompts: { id: string; text: string }[];
  /** Sessions created through `session.create`, in order. */
  created: { id: string; parentID?: string; title?: string }[];
  /** Calls of `session.summarize`, in order. */
  summarized: { id: string; providerID: string; modelID: string }[];
  /** Sets the messages a session returns (a function is called on each read). */
  setMessages(id: string, messages: unknown[] | (() => Promise<unknown[]>)): void;
  /** Scripts the paged reads of a session (reads with `limit`); the whole list is still served as set. */
  scriptPages(id: string, script: PageScript): void;
  /** Queues replies to `session.prompt` for a session, used in order. */
  queueReplies(id: string, ...replies: string[]): void;
  /** Lines whose message contains `fragment`. */
  linesWith(fragment: string): LoggedLine[];
}

/** Builds a message entry. */
export function message(id: string, role: 'user' | 'assistant', text: string, extra: Record<string, unknown> = {}, tools: unknown[] = []): unknown {
  return { info: { id, role, sessionID: 'ses_test', ...extra }, parts: [{ type: 'text', text }, ...tools] };
}

/**
 * @param options - `serialize`: every answer goes through JSON as the in-process server sends it, so a
 *   read costs the hook thread what it costs in OpenCode (the benchmark's setting; tests share the objects).
 */
export function createFakeHost(options: { serialize?: boolean } = {}): FakeHost {
  const copy = (messages: unknown[]): unknown[] => (options.serialize ? (JSON.parse(JSON.stringify(messages)) as unknown[]) : messages);
  const logs: LoggedLine[] = [];
  const prompts: { id: string; text: string }[] = [];
  const sessions = new Map<string, unknown[] | (() => Promise<unknown[]>)>();
  const scripts = new Map<string, { script: PageScript; calls: number }>();
  const replies = new Map<string, string[]>();
  const created: FakeHost['created'] = [];
  const summarized: FakeHost['summarized'] = [];
  const client: HostClient = {
    app: {
      async log({ body }) {
        logs.push({ service: body.service, level: body.level, message: body.message, ...(body.extra ? { extra: body.extra } : {}) });
        return { data: true };
      },
    },
    session: {
      async messages({ path, query }) {
        const found = sessions.get(path.id);
        if (!found) return { error: { message: `session ${path.id} not found` } };
        const all = typeof found === 'function' ? await found() : found;
        if (!query?.limit) return { data: copy(all) };
        const scripted = scripts.get(path.id);
        if (scripted) {
          scripted.calls += 1;
          const answer = await scripted.script({ limit: query.limit, ...(query.before !== undefined ? { before: query.before } : {}) }, all, scripted.calls);
          if (answer) return Array.isArray(answer.data) ? { ...answer, data: copy(answer.data) } : answer;
        }
        // As OpenCode 1.18.33 pages: the newest `limit` before the cursor, oldest first, the next cursor in a header.
        const end = query.before === undefined ? all.length : Math.min(all.length, Number(query.before));
        const start = Math.max(0, end - query.limit);
        return { data: copy(all.slice(start, end)), response: cursorHeaders(start > 0 ? String(start) : null) };
      },
      async prompt({ path, body }) {
        const text = body.parts.map((part) => part.text).join('\n');
        prompts.push({ id: path.id, text });
        const next = replies.get(path.id)?.shift() ?? '';
        return { data: { info: { role: 'assistant' }, parts: [{ type: 'text', text: next }] } };
      },
      async create({ body }) {
        const id = `ses_child_${created.length + 1}`;
        created.push({ id, ...body });
        return { data: { id } };
      },
      async summarize({ path, body }) {
        summarized.push({ id: path.id, ...body });
        return { data: true };
      },
    },
  };
  return {
    client,
    logs,
    prompts,
    created,
    summarized,
    setMessages: (id, messages) => void sessions.set(id, messages),
    scriptPages: (id, script) => void scripts.set(id, { script, calls: 0 }),
    queueReplies: (id, ...texts) => void replies.set(id, [...(replies.get(id) ?? []), ...texts]),
    linesWith: (fragment) => logs.filter((line) => line.message.includes(fragment)),
  };
}
