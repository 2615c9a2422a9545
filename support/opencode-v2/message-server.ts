/**
 * The host's HTTP API as far as a plugin reads it through `ctx.app.server`:
 * `GET /api/session/:id/message?limit=&order=asc|desc&cursor=` (client
 * @8c6ff62), basic auth as user `opencode`, a real loopback server on a port
 * of its own. A reply is `{ data, cursor: { previous, next } }`; a cursor
 * names the message the page starts at, so messages appended while a reader
 * pages do not shift its pages.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { SessionStore, StoredMessage } from './session-store.js';

/** A page holds at most this many messages, whatever `limit` asks. */
export const MAX_PAGE = 200;

/** A page's size when the request names none. */
export const DEFAULT_PAGE = 50;

/** One request the server answered. */
export interface ServedRequest {
  method: string;
  /** The path and query as sent. */
  url: string;
  status: number;
}

/** The running server. */
export interface MessageServer {
  url: string;
  password: string;
  /** Every request answered, oldest first. */
  requests: ServedRequest[];
  close(): Promise<void>;
}

type Order = 'asc' | 'desc';

function encodeCursor(order: Order, id: string): string {
  return Buffer.from(JSON.stringify({ order, id })).toString('base64url');
}

function decodeCursor(cursor: string, order: Order): string | null {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (typeof parsed !== 'object' || parsed === null) return null;
    const { order: given, id } = parsed as { order?: unknown; id?: unknown };
    return given === order && typeof id === 'string' ? id : null;
  } catch {
    return null;
  }
}

/** The page of `messages` (oldest first) that `query` asks for, or why it cannot be served. */
export function pageOf(messages: readonly StoredMessage[], query: URLSearchParams): { status: 200; body: unknown } | { status: 400; body: { error: string } } {
  const rawOrder = query.get('order') ?? 'asc';
  if (rawOrder !== 'asc' && rawOrder !== 'desc') return { status: 400, body: { error: `order must be asc or desc, not ${rawOrder}` } };
  const order: Order = rawOrder;
  const rawLimit = query.get('limit');
  const limit = rawLimit === null || rawLimit === '' ? DEFAULT_PAGE : Number(rawLimit);
  if (!Number.isInteger(limit) || limit < 1) return { status: 400, body: { error: `limit must be a positive integer, not ${rawLimit}` } };
  const ordered = order === 'asc' ? [...messages] : [...messages].reverse();
  const cursor = query.get('cursor');
  let start = 0;
  if (cursor !== null && cursor !== '') {
    const id = decodeCursor(cursor, order);
    start = id === null ? -1 : ordered.findIndex((message) => message.info.id === id);
    if (start < 0) return { status: 400, body: { error: 'unknown cursor' } };
  }
  const size = Math.min(limit, MAX_PAGE);
  const data = ordered.slice(start, start + size);
  const after = ordered[start + size];
  const before = start > 0 ? ordered[Math.max(0, start - size)] : undefined;
  return {
    status: 200,
    body: { data, cursor: { previous: before ? encodeCursor(order, before.info.id) : null, next: after ? encodeCursor(order, after.info.id) : null } },
  };
}

function authorized(request: IncomingMessage, password: string): boolean {
  const header = request.headers.authorization ?? '';
  return header === `Basic ${Buffer.from(`opencode:${password}`).toString('base64')}`;
}

/**
 * Starts the server on 127.0.0.1, port 0.
 *
 * @param sessions - the store whose messages it serves.
 */
export async function startMessageServer(sessions: SessionStore): Promise<MessageServer> {
  const password = randomBytes(12).toString('hex');
  const requests: ServedRequest[] = [];
  const reply = (request: IncomingMessage, response: ServerResponse, status: number, body: unknown): void => {
    requests.push({ method: request.method ?? '', url: request.url ?? '', status });
    response.writeHead(status, { 'content-type': 'application/json', ...(status === 401 ? { 'www-authenticate': 'Basic realm="opencode"' } : {}) });
    response.end(JSON.stringify(body));
  };
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (!authorized(request, password)) return reply(request, response, 401, { error: 'unauthorized' });
    const match = /^\/api\/session\/([^/]+)\/message$/.exec(url.pathname);
    if (request.method !== 'GET' || !match?.[1]) return reply(request, response, 404, { error: 'not found' });
    const session = sessions.get(decodeURIComponent(match[1]));
    if (!session) return reply(request, response, 404, { error: 'session not found' });
    const page = pageOf(session.messages, url.searchParams);
    reply(request, response, page.status, page.body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    password,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Keep-alive connections would hold close() open until they time out.
        server.closeAllConnections();
      }),
  };
}
