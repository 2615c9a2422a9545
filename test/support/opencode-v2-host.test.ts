/**
 * The 2.x contract host itself, with small plugins written here: it must hold a plugin to what the
 * reference says the 2.x host does, or the scenario tests prove nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { V2Event, V2PluginContext, V2ToolDefinition } from '../../src/main/host/v2/opencode-v2.js';
import { decodeDefinition, DEFINITION_ERROR } from '../../support/opencode-v2/definition.js';
import { startV2Service, type V2Service } from '../../support/opencode-v2/service.js';
import { createSessionStore, modelMessages } from '../../support/opencode-v2/session-store.js';

let service: V2Service | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

async function started(): Promise<V2Service> {
  service = await startV2Service({ deadlineMs: 100 });
  return service;
}

/** A plugin whose setup hands its context to the test. */
function probe(seen: V2PluginContext[], cleanup?: () => void): { default: { id: string; setup(ctx: V2PluginContext): () => void } } {
  return {
    default: {
      id: 'probe',
      setup(ctx) {
        seen.push(ctx);
        return () => cleanup?.();
      },
    },
  };
}

/** Fetches a page of a session's messages as a plugin would. */
async function page(host: V2Service, sessionID: string, query: string, password = host.app.server.password): Promise<{ status: number; body: { data: { info: { id: string } }[]; cursor: { next: string | null; previous: string | null } } }> {
  const response = await fetch(`${host.app.server.url}/api/session/${sessionID}/message?${query}`, { headers: { authorization: `Basic ${Buffer.from(`opencode:${password}`).toString('base64')}` } });
  return { status: response.status, body: (await response.json()) as never };
}

describe('decodeDefinition', () => {
  it("should refuse a 1.x-only export with the loader's message, and accept both 2.x forms with extra keys", async () => {
    const server = async (): Promise<object> => ({});
    expect(() => decodeDefinition({ default: { id: 'x', server } })).toThrow(DEFINITION_ERROR);
    expect(() => decodeDefinition({ default: server })).toThrow(DEFINITION_ERROR);
    expect(() => decodeDefinition({ default: { setup: () => undefined } })).toThrow(DEFINITION_ERROR);
    expect(() => decodeDefinition({})).toThrow(DEFINITION_ERROR);
    expect(decodeDefinition({ default: { id: 'x', server, setup: () => undefined } }).form).toBe('setup');
    expect(decodeDefinition({ default: { id: 'x', effect: {} } }).form).toBe('effect');
    const host = await started();
    await expect(host.boot({ default: { id: 'x', server } }, { directory: '/p/a' })).rejects.toThrow(DEFINITION_ERROR);
  });
});

describe('startV2Service', () => {
  it('should page a session newest first with cursors, behind basic auth', async () => {
    const host = await started();
    const location = await host.boot(probe([]), { directory: '/p/a' });
    const id = location.createSession();
    for (let turn = 1; turn <= 3; turn++) location.turn(id, `question ${turn}`, `answer ${turn}`);
    const all = host.sessions.get(id)?.messages.map((message) => message.info.id) ?? [];
    expect(all).toHaveLength(6);
    const ids: string[] = [];
    let cursor = '';
    let pages = 0;
    for (;;) {
      const reply = await page(host, id, `limit=4&order=desc${cursor ? `&cursor=${cursor}` : ''}`);
      expect(reply.status).toBe(200);
      pages += 1;
      ids.push(...reply.body.data.map((message) => message.info.id));
      if (!reply.body.cursor.next) break;
      // A message arriving while a reader pages does not shift the pages it has yet to read.
      if (pages === 1) location.turn(id, 'late question', 'late answer');
      cursor = reply.body.cursor.next;
    }
    expect(pages).toBe(2);
    expect(ids).toEqual([...all].reverse());
    expect((await page(host, id, 'limit=2&order=asc')).body.data.map((message) => message.info.id)).toEqual(all.slice(0, 2));
    expect((await page(host, id, 'limit=2', 'wrong')).status).toBe(401);
    expect((await page(host, id, 'limit=2&order=desc&cursor=bogus')).status).toBe(400);
    expect((await page(host, 'ses_missing', 'limit=2')).status).toBe(404);
  });

  it("should deliver an event only to its location's subscribers and end their iterators on unload", async () => {
    const host = await started();
    const seen: V2PluginContext[] = [];
    const [a, b] = [await host.boot(probe(seen), { directory: '/p/a' }), await host.boot(probe(seen), { directory: '/p/b' })];
    const read = (ctx: V2PluginContext | undefined): { events: V2Event[]; ended: Promise<void> } => {
      const events: V2Event[] = [];
      const ended = (async () => {
        for await (const event of ctx?.event?.subscribe() ?? []) events.push(event);
      })();
      return { events, ended };
    };
    const [fromA, fromB] = [read(seen[0]), read(seen[1])];
    a.publish({ type: 'session.compaction.ended', data: { sessionID: 's1', text: 'A' } });
    b.publish({ type: 'session.compaction.ended', data: { sessionID: 's2', text: 'B' } });
    a.publish(null);
    host.bus.publishEverywhere({ type: 'session.compaction.ended', data: { sessionID: 's3', text: 'both' } });
    await new Promise((resolve) => setImmediate(resolve));
    expect(fromA.events.map((event) => event?.data?.['text'] ?? event)).toEqual(['A', null, 'both']);
    expect(fromB.events.map((event) => event?.data?.['text'])).toEqual(['B', 'both']);
    expect(seen.map((ctx) => ctx.location?.directory)).toEqual(['/p/a', '/p/b']);
    await a.unload();
    await fromA.ended;
    expect(host.bus.subscribers('/p/a')).toBe(0);
    expect(host.bus.subscribers('/p/b')).toBe(1);
  });

  it('should record a hook that throws or hangs, a compaction result, a bad tool, and answer prompts of both forms on wait', async () => {
    const host = await started();
    let ctx: V2PluginContext | undefined;
    const location = await host.boot(probe([]), { directory: '/p/a' });
    ctx = location.ctx;
    await ctx.session?.hook('context', () => {
      throw new Error('boom');
    });
    await ctx.session?.hook('context', () => new Promise<void>(() => undefined));
    await ctx.session?.hook('compaction', (event) => {
      event.result = { summary: 'replaced' };
    });
    await ctx.tool?.transform((tools) => tools.add({ name: 'bad tool', description: '', input: { type: 'object', properties: {} }, execute: async () => ({ content: '' }) } satisfies V2ToolDefinition));
    const id = location.createSession();
    await location.modelCall(id, 'primary');
    const compaction = await location.compact(id, { summary: 'model summary' });
    expect(compaction.resultSet).toBe(true);
    expect(compaction.text).toBe('replaced');
    expect(await location.tools()).toEqual([]);
    expect(host.records.violations.map((entry) => `${entry.where}: ${entry.message}`)).toEqual([
      'session.hook(context): threw: boom',
      'session.hook(context): did not settle within 100 ms',
      expect.stringMatching(/^tool\.transform: threw: tool name must match/),
    ]);
    expect(host.records.compactions).toEqual([{ location: '/p/a', sessionID: id, resultSet: true }]);
    expect(host.records.registrations.map((entry) => entry.name)).toEqual(['context', 'context', 'compaction', 'transform']);

    const child = location.createSession({ parentID: id });
    host.sessions.script(child, 'first', 'second');
    await ctx.session?.prompt({ sessionID: child, prompt: { text: 'nested form' } });
    await ctx.session?.prompt({ sessionID: child, text: 'flat form' });
    expect(host.sessions.get(child)?.messages).toHaveLength(0);
    await ctx.session?.wait({ sessionID: child });
    expect(host.sessions.get(child)?.messages.map((message) => message.parts[0])).toEqual([
      { type: 'text', text: 'nested form' },
      { type: 'text', text: 'first' },
      { type: 'text', text: 'flat form' },
      { type: 'text', text: 'second' },
    ]);
    await expect(ctx.session?.prompt({ sessionID: child })).rejects.toThrow(/needs a sessionID and a text/);

    await location.unload();
    expect(host.records.registrations.every((entry) => entry.disposed)).toBe(true);
    await expect(ctx.session?.hook('context', () => undefined)).rejects.toThrow(/after the location was unloaded/);
  });
});

describe('modelMessages', () => {
  it('should give the model-bound history from the latest compaction on, content-keyed, tool results as tool messages', () => {
    const store = createSessionStore();
    const { id } = store.create('/p/a');
    store.append(id, 'user', [{ type: 'text', text: 'before the compaction' }]);
    store.append(id, 'user', [{ type: 'compaction', auto: false }]);
    store.append(id, 'assistant', [{ type: 'text', text: '## Goal\nthe summary' }], { summary: true, mode: 'compaction' });
    store.append(id, 'user', [{ type: 'text', text: 'run the tests' }]);
    store.append(id, 'assistant', [
      { type: 'text', text: 'running' },
      { type: 'tool', callID: 'call_1', tool: 'bash', state: { status: 'completed', input: { command: 'npm test' }, output: 'FAIL', title: 'bash', metadata: {}, time: { start: 1, end: 2 } } },
    ]);
    const history = modelMessages(store.get(id) ?? { id, location: '/p/a', messages: [], queued: [], prompts: [] });
    expect(history.map(({ role, content }) => ({ role, content }))).toEqual([
      { role: 'user', content: 'What did we do so far?' },
      { role: 'assistant', content: [{ type: 'text', text: '## Goal\nthe summary' }] },
      { role: 'user', content: 'run the tests' },
      { role: 'assistant', content: [{ type: 'text', text: 'running' }, { type: 'tool-call', toolCallId: 'call_1', toolName: 'bash', input: { command: 'npm test' } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1', toolName: 'bash', output: { type: 'text', value: 'FAIL' } }] },
    ]);
  });
});
