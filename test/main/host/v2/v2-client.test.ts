import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerOf, createV2Client, type CompactionHistories } from '../../../../src/main/host/v2/v2-client.js';
import { readSessionMessages } from '../../../../src/main/session/session-reader.js';
import { createFileLog } from '../../../../src/main/host/v2/file-log.js';

const stored = (id: string, role: 'user' | 'assistant', text: string) => ({ info: { id, role, sessionID: 'ses_a' }, parts: [{ type: 'text', text }] });
const session = Array.from({ length: 25 }, (_, index) => stored(`m${String(index).padStart(2, '0')}`, index % 2 ? 'assistant' : 'user', `message ${index}`));
const requests: string[] = [];
let server: Server;
let url = '';

/** Pages newest first (`order=desc`) or oldest first, `cursor` the offset in that order, as the 2.x list answers. */
function answer(request: IncomingMessage): { status: number; body?: unknown } {
  if (request.headers.authorization !== `Basic ${Buffer.from('opencode:secret').toString('base64')}`) return { status: 401 };
  const found = /^\/api\/session\/([^/]+)\/message$/.exec(new URL(request.url ?? '', 'http://h').pathname);
  if (!found) return { status: 404 };
  const query = new URL(request.url ?? '', 'http://h').searchParams;
  const ordered = query.get('order') === 'desc' ? [...session].reverse() : session;
  const start = Number(query.get('cursor') ?? 0);
  const limit = Number(query.get('limit') ?? 10);
  const end = Math.min(ordered.length, start + limit);
  return { status: 200, body: { data: ordered.slice(start, end), cursor: { next: end < ordered.length ? String(end) : null } } };
}

beforeAll(async () => {
  server = createServer((request, response) => {
    requests.push(request.url ?? '');
    const { status, body } = answer(request);
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(body === undefined ? '' : JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const noPrompt = { prompt: async () => undefined, wait: async () => undefined };

describe('createV2Client', () => {
  it('should page the HTTP list newest first into the reader, oldest first overall, each message once', async () => {
    requests.length = 0;
    const client = createV2Client({ session: noPrompt, app: { server: { url, password: 'secret' } }, log: createFileLog('/dev/null'), histories: new Map() });
    const read = await readSessionMessages(client, 'ses_a', 5_000, { pageSize: 10 });
    expect(read.done && read.value.data?.map((message) => message.id)).toEqual(session.map((message) => message.info.id));
    expect(requests.every((line) => line.includes('order=desc') && line.includes('limit=10'))).toBe(true);
    expect(requests).toHaveLength(3);
  });

  it('should serve the compaction history in memory, paged the same way, without asking the server', async () => {
    requests.length = 0;
    const histories: CompactionHistories = new Map([['ses_h', Array.from({ length: 12 }, (_, index) => ({ role: index % 2 ? 'assistant' : 'user', content: `turn ${index}` }))]]);
    const client = createV2Client({ session: noPrompt, log: createFileLog('/dev/null'), histories });
    const read = await readSessionMessages(client, 'ses_h', 5_000, { pageSize: 5 });
    expect(read.done && read.value.data?.map((message) => message.text)).toEqual(Array.from({ length: 12 }, (_, index) => `turn ${index}`));
    expect(requests).toHaveLength(0);
  });

  it('should read a compacted session from the service first, and from the history the hook handed over when the service fails', async () => {
    const history = [{ role: 'user', content: 'What did we do so far?' }, { role: 'assistant', content: 'The summary.' }];
    const read = async (password: string) => {
      const client = createV2Client({ session: noPrompt, app: { server: { url, password } }, log: createFileLog('/dev/null'), histories: new Map([['ses_a', history]]) });
      const listed = await readSessionMessages(client, 'ses_a', 5_000, { pageSize: 10 });
      return listed.done ? listed.value.data?.map((message) => message.text) : [];
    };
    expect(await read('secret')).toEqual(session.map((message) => message.parts[0]?.text));
    expect(await read('wrong')).toEqual(['What did we do so far?', 'The summary.']);
  });

  it('should prompt, wait, and answer with the newest assistant message; the flat form when the nested one is refused', async () => {
    const calls: unknown[] = [];
    const client = createV2Client({
      session: {
        async prompt(input) {
          calls.push(input);
          if (input.prompt) throw new Error('unknown key prompt');
        },
        async wait(input) {
          calls.push({ waited: input.sessionID });
        },
      },
      app: { server: { url, password: 'secret' } },
      log: createFileLog('/dev/null'),
      histories: new Map(),
    });
    const answered = await client.session.prompt({ path: { id: 'ses_a' }, body: { parts: [{ type: 'text', text: 'Add a ConfessionReport.' }] } });
    expect(calls).toEqual([{ sessionID: 'ses_a', prompt: { text: 'Add a ConfessionReport.' } }, { sessionID: 'ses_a', text: 'Add a ConfessionReport.' }, { waited: 'ses_a' }]);
    expect(answered.data).toEqual(session[23]);
  });

  it('should answer an error, not throw, when the host offers no server or refuses the password', async () => {
    const without = createV2Client({ session: noPrompt, log: createFileLog('/dev/null'), histories: new Map() });
    expect((await without.session.messages({ path: { id: 'ses_a' }, query: { limit: 5 } })).error).toMatch(/no server/);
    const refused = createV2Client({ session: noPrompt, app: { server: { url, password: 'wrong' } }, log: createFileLog('/dev/null'), histories: new Map() });
    expect((await refused.session.messages({ path: { id: 'ses_a' }, query: { limit: 5 } })).error).toMatch(/401/);
  });
  it('should run its fetch once on a data URL while the plugin loads, before any read, and not without a service', async () => {
    const asked: string[] = [];
    const recording = ((input: string | URL | Request, init?: RequestInit) => {
      asked.push(String(input));
      return fetch(input, init);
    }) as typeof fetch;
    createV2Client({ session: noPrompt, app: { server: { url, password: 'secret' } }, log: createFileLog('/dev/null'), histories: new Map(), fetch: recording });
    createV2Client({ session: noPrompt, log: createFileLog('/dev/null'), histories: new Map(), fetch: recording });
    // Not within the caller's turn: the setup that creates the client goes on first.
    expect(asked).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(asked).toEqual(['data:text/plain,']);
  });
});

describe('answerOf', () => {
  it('should find the reply in what wait answered, in each shape a build may send, and nothing in the rest', () => {
    const reply = { info: { id: 'm9', role: 'assistant' }, parts: [{ type: 'text', text: 'ConfessionReport: met' }] };
    expect(answerOf(reply, 's')).toBe(reply);
    expect(answerOf({ data: reply }, 's')).toBe(reply);
    expect(answerOf({ message: { role: 'assistant', content: 'ConfessionReport: met' } }, 's')).toMatchObject({ info: { role: 'assistant' }, parts: [{ type: 'text', text: 'ConfessionReport: met' }] });
    expect(answerOf({ text: 'ConfessionReport: met' }, 's')).toMatchObject({ parts: [{ type: 'text', text: 'ConfessionReport: met' }] });
    for (const none of [undefined, null, true, { status: 'idle' }, { info: { role: 'user' }, parts: [{ type: 'text', text: 'q' }] }]) expect(answerOf(none, 's')).toBeNull();
  });
});
