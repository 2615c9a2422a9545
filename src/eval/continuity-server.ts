/**
 * The service's message list for the continuity run's 2.x instances, on a
 * loopback port: `GET /api/session/:id/message?limit=&order=asc|desc&cursor=`
 * with basic auth as user `opencode`, answering `{ data, cursor: { next } }`
 * from the same sessions the 1.x host lists. A 2.x compaction reads the stored
 * session through it, as the plugin does where 2.x runs a server.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MessageStore } from './continuity-host.js';

/** A page's size when the request names none. */
export const DEFAULT_PAGE_MESSAGES = 50;

/** A running server. */
export interface ContinuityServer {
  url: string;
  password: string;
  close(): Promise<void>;
}

function answer(request: IncomingMessage, store: MessageStore, password: string): { status: number; body: unknown } {
  if (request.headers.authorization !== `Basic ${Buffer.from(`opencode:${password}`).toString('base64')}`) return { status: 401, body: { error: 'unauthorized' } };
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  const found = /^\/api\/session\/([^/]+)\/message$/.exec(url.pathname);
  const messages = found ? store.get(decodeURIComponent(found[1] ?? '')) : undefined;
  if (request.method !== 'GET' || !messages) return { status: 404, body: { error: 'not found' } };
  const ordered = url.searchParams.get('order') === 'desc' ? [...messages].reverse() : messages;
  const start = Math.max(0, Number(url.searchParams.get('cursor') ?? 0) || 0);
  const limit = Math.max(1, Number(url.searchParams.get('limit') ?? DEFAULT_PAGE_MESSAGES) || DEFAULT_PAGE_MESSAGES);
  const end = Math.min(ordered.length, start + limit);
  return { status: 200, body: { data: ordered.slice(start, end), cursor: { previous: start > 0 ? String(Math.max(0, start - limit)) : null, next: end < ordered.length ? String(end) : null } } };
}

/**
 * @param store - the run's sessions, `{ info, parts }`, oldest first.
 */
export async function startContinuityServer(store: MessageStore): Promise<ContinuityServer> {
  const password = randomBytes(12).toString('hex');
  const server = createServer((request, response) => {
    const { status, body } = answer(request, store, password);
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    password,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
