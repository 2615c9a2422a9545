/**
 * The plugin inside the real OpenCode server (the pinned `opencode-ai`),
 * loaded from its packed tarball, against a fake model on loopback and the
 * maenifold CLI double: the scenarios of one project, run with the default
 * pool. Each asserts on what the model received and what the double
 * recorded. Scenarios that need projects of their own, and the probes under
 * OpenCode's Bun, are in projects.e2e.test.ts, beside this file's server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DoubleRoot, RecordedCall } from '../../support/maenifold-double.js';
import { STRONG_GRAPH } from '../support/plugin-harness.js';
import { countTokens } from '../../src/core/text/tokens/tokens.js';
import { generatedProse, proseInPieces } from '../../src/synth/session-prose.js';
import { createProject, until } from '../../support/opencode/runtime.js';
import { defaultScript, type FakeModel } from '../../support/opencode/fake-model.js';
import type { OpenCodeServer } from '../../support/opencode/opencode-server.js';
import { projectApi, type ProjectApi } from '../../support/opencode/api.js';
import { closeFixture, expectCleanShutdown, openFixture, requestsSince, startServer, type ServerFixture } from './server-fixture.js';

const GUIDELINES_HEADING = '## Linking concepts in this summary';
const PRESERVATION_HEADING = '## Session knowledge to preserve';
const CONFESSION_DEMAND = 'Your result reached the caller without a ConfessionReport';

let fixture: ServerFixture;
let scratch = '';
let model: FakeModel;
let double: DoubleRoot;
let server: OpenCodeServer | undefined;
let main: ProjectApi;
let mainDir = '';

async function callsOf(tool: string): Promise<RecordedCall[]> {
  return (await double.calls()).filter((call) => call.tool === tool);
}

beforeAll(async () => {
  fixture = await openFixture();
  ({ scratch, model, double } = fixture);
  await double.seed(STRONG_GRAPH);
  // The seeded graph belongs to no project: this project reads all of memory to show the graph context.
  mainDir = await createProject(scratch, 'acme-shop', fixture.template, {
    pluginOptions: { cli: double.cliPath, memoryScope: 'all' },
    modelUrl: model.url,
    files: {
      '.opencode/rules/always.md': 'Answer in British English.',
      '.opencode/rules/api.md': '---\nglobs: ["src/api/**"]\ndescription: API rules\n---\nValidate every request body.',
      'src/api/users.ts': 'export const users = [];\n',
    },
  });
  server = await startServer(fixture, mainDir);
  main = await projectApi(server.url, mainDir);
});

afterAll(async () => {
  main?.close();
  await closeFixture(fixture, server);
});

describe('the plugin in the real OpenCode server', () => {
  it('session start: the first request carries the graph context within budget; later ones reuse it', async () => {
    const before = model.requests.length;
    const session = await main.createSession();
    expect((await main.prompt(session, 'Hello, what do we know about this project?')).status).toBe(200);
    const first = requestsSince(model, before, (request) => !request.isCompaction && request.lastUser.includes('what do we know'))[0];
    expect(first).toBeDefined();
    const system = first?.system ?? '';
    // Appended to the last system entry, so the block runs to the end of the system text.
    const block = system.slice(system.indexOf('## Knowledge Graph Context'));
    expect(system.indexOf('## Knowledge Graph Context')).toBeGreaterThan(0);
    expect(block).toContain('Context for CONCEPT: cache-layer');
    expect(countTokens(block)).toBeLessThanOrEqual(4_000);
    const lookups = (await callsOf('SearchMemories')).length;
    expect((await main.prompt(session, 'And a second question.')).status).toBe(200);
    const second = requestsSince(model, before, (request) => request.lastUser.includes('second question'))[0];
    expect(second?.system).toContain('## Knowledge Graph Context');
    expect((await callsOf('SearchMemories')).length).toBe(lookups);
  });

  it('task augmentation and ConfessionReport: the subagent gets Graph Context, a missing confession is asked for and appended', async () => {
    const before = model.requests.length;
    model.setScript((request) => {
      if (request.isCompaction) return defaultScript(request);
      if (request.lastUser.includes(CONFESSION_DEMAND)) return { text: 'Redis is configured.\n\n## ConfessionReport\n1. ✅ checked the [[redis]] setup' };
      if (request.lastUser.startsWith('Check the [[redis]] setup')) return { text: 'Redis is configured.' };
      if (request.lastUser.includes('DELEGATE') && !request.afterTool) {
        return { toolCall: { name: 'task', args: { description: 'check redis', prompt: 'Check the [[redis]] setup of the [[cache-layer]].', subagent_type: 'general' } } };
      }
      return { text: `Reply ${request.n}.` };
    });
    const session = await main.createSession();
    expect((await main.prompt(session, 'DELEGATE the redis check', { timeoutMs: 90_000 })).status).toBe(200);
    const subagent = requestsSince(model, before, (request) => request.lastUser.startsWith('Check the [[redis]] setup'))[0];
    expect(subagent?.lastUser).toContain('\n\n---\n\n## Graph Context');
    expect(subagent?.lastUser).toContain('Context for CONCEPT: redis');
    expect(requestsSince(model, before, (request) => request.lastUser.includes(CONFESSION_DEMAND))).toHaveLength(1);
    const parentAfterTool = requestsSince(model, before, (request) => request.afterTool && request.lastUser.includes('DELEGATE')).at(-1);
    const toolResult = JSON.stringify(parentAfterTool?.messages.at(-1)?.content ?? '');
    expect(toolResult).toContain('ConfessionReport');
    expect((await callsOf('BuildContext')).some((call) => (call.payload as { maxEntities?: number }).maxEntities === 5)).toBe(true);

    // With a confession already there, no follow-up.
    const again = model.requests.length;
    model.setScript((request) => {
      if (request.lastUser.startsWith('Check the [[redis]] setup')) return { text: 'Fine.\n\n## ConfessionReport\n1. ✅' };
      if (request.lastUser.includes('DELEGATE') && !request.afterTool) {
        return { toolCall: { name: 'task', args: { description: 'check redis', prompt: 'Check the [[redis]] setup again.', subagent_type: 'general' } } };
      }
      return defaultScript(request);
    });
    expect((await main.prompt(await main.createSession(), 'DELEGATE once more', { timeoutMs: 90_000 })).status).toBe(200);
    expect(requestsSince(model, again, (request) => request.lastUser.includes(CONFESSION_DEMAND))).toHaveLength(0);
    model.setScript(defaultScript);
  });

  it('manual compaction: guidelines and a ≤ 500-token preservation context reach the model; note and chain are written', async () => {
    const before = model.requests.length;
    const writesBefore = (await callsOf('WriteMemory')).length;
    const session = await main.createSession();
    await main.prompt(session, '## Plan\nWe decided to use [[Redis]] for the [[cache layer]] because every node shares it. We will not use [[Memcached]] since it lacks persistence.');
    expect((await main.summarize(session)).status).toBe(200);
    await main.waitForEvent((event) => event.type === 'session.compacted' && event.properties?.['sessionID'] === session, 30_000, 'session.compacted');
    const compaction = requestsSince(model, before, (request) => request.isCompaction).at(-1);
    expect(compaction?.lastUser).toContain(GUIDELINES_HEADING);
    // The plugin's context entries come last in the compaction prompt, the preservation context after the guidelines.
    const prompt = compaction?.lastUser ?? '';
    const preserved = prompt.slice(prompt.indexOf(PRESERVATION_HEADING));
    expect(prompt.indexOf(PRESERVATION_HEADING)).toBeGreaterThan(prompt.indexOf(GUIDELINES_HEADING));
    expect(preserved).toContain('[[redis]]');
    expect(countTokens(preserved)).toBeLessThanOrEqual(500);

    // The first compaction note written since: a memory digest's pass may write between.
    const write = await until(async () => (await callsOf('WriteMemory')).slice(writesBefore).find((call) => (call.payload as { tags?: string[] }).tags?.[0] === 'compaction'), 20_000, 'WriteMemory');
    const payload = write.payload as { folder: string; content: string; tags: string[] };
    expect(payload.tags.slice(0, 3)).toEqual(['compaction', 'session', 'acme-shop']);
    expect(payload.tags[3]).toMatch(/^acme-shop-[0-9a-f]{8}$/);
    expect(payload.folder).toBe(`sessions/compaction/${payload.tags[3]}`);
    expect(payload.content).toContain('[[redis]]');
    const thinking = await until(async () => {
      const calls = await callsOf('SequentialThinking');
      return calls.length > 0 ? calls : undefined;
    }, 20_000, 'SequentialThinking');
    expect(thinking[0]?.payload).toMatchObject({ thoughtNumber: 0 });

    expect((await main.summarize(session)).status).toBe(200);
    const chained = await until(async () => {
      const calls = await callsOf('SequentialThinking');
      return calls.length > 1 ? calls : undefined;
    }, 30_000, 'a second SequentialThinking');
    expect(chained[1]?.payload).toMatchObject({ thoughtNumber: 1 });
    const chain = (chained[1]?.payload as { sessionId?: string }).sessionId;
    expect(chain).toMatch(/^session-/);
    // The double accepted the second thought into the same chain (its call is logged before it answers).
    await until(async () => (server?.output().includes(`summary: thought 1 of chain ${chain}`) ? true : undefined), 20_000, 'thought 1 delivered');
  });

  it('a stated decision reaches the compaction prompt whole: object, what it replaces and why', async () => {
    const before = model.requests.length;
    const session = await main.createSession();
    const stated = 'We decided to use SQLite instead of Redis because it is simpler to ship.';
    expect((await main.prompt(session, `${stated} Please keep that in mind for the cart service.`)).status).toBe(200);
    expect((await main.summarize(session)).status).toBe(200);
    const prompt = requestsSince(model, before, (request) => request.isCompaction).at(-1)?.lastUser ?? '';
    const preserved = prompt.slice(prompt.indexOf(PRESERVATION_HEADING));
    expect(prompt.indexOf(PRESERVATION_HEADING)).toBeGreaterThan(0);
    const line = preserved.split('\n').find((text) => text.includes('SQLite'));
    expect(line, 'a line of the preservation context names SQLite').toBeDefined();
    expect(line).toContain('SQLite instead of Redis because it is simpler to ship');
  });

  it('overflow compaction: reported usage near the limit compacts through the same path', async () => {
    const before = model.requests.length;
    const writesBefore = (await callsOf('WriteMemory')).length;
    model.setScript((request) => (request.isCompaction ? defaultScript(request) : { text: 'A long answer about [[redis]] and the [[cache-layer]].', promptTokens: request.lastUser.includes('BIGTOKENS') ? 15_000 : 100 }));
    const session = await main.createSession();
    await main.prompt(session, 'Some context first: we chose to adopt [[redis]] for sessions because it is fast.');
    await main.prompt(session, 'BIGTOKENS now', { timeoutMs: 90_000 });
    await main.waitForEvent((event) => event.type === 'session.compacted' && event.properties?.['sessionID'] === session, 60_000, 'session.compacted after overflow');
    const compaction = requestsSince(model, before, (request) => request.isCompaction).at(-1);
    expect(compaction?.lastUser).toContain(GUIDELINES_HEADING);
    expect(compaction?.lastUser).toContain(PRESERVATION_HEADING);
    await until(async () => ((await callsOf('WriteMemory')).length > writesBefore ? true : undefined), 20_000, 'WriteMemory after overflow');
    model.setScript(defaultScript);
  });

  it('rules: a conditional rule applies once its file is read, and after a compaction the rules arrive exactly once', async () => {
    const before = model.requests.length;
    const RULE = 'Validate every request body.';
    const occurrences = (text: string): number => text.split(RULE).length - 1;
    model.setScript((request) => {
      if (request.isCompaction) return defaultScript(request);
      if (request.lastUser.includes('READAPI') && !request.afterTool) return { toolCall: { name: 'read', args: { filePath: 'src/api/users.ts' } } };
      return { text: `Reply ${request.n}.` };
    });
    const session = await main.createSession();
    expect((await main.prompt(session, 'Hello before reading anything, please.')).status).toBe(200);
    const first = requestsSince(model, before, (request) => request.lastUser.includes('Hello before reading'))[0];
    expect(first?.system).toContain('Answer in British English.');
    expect(occurrences(first?.system ?? '')).toBe(0);
    expect((await main.prompt(session, 'READAPI now', { timeoutMs: 90_000 })).status).toBe(200);
    const afterRead = requestsSince(model, before, (request) => request.afterTool && request.lastUser.includes('READAPI')).at(-1);
    expect(occurrences(afterRead?.system ?? '')).toBe(1);

    expect((await main.summarize(session)).status).toBe(200);
    const compaction = requestsSince(model, before, (request) => request.isCompaction).at(-1);
    expect(compaction?.lastUser).toContain('## Working context');
    expect(compaction?.lastUser).toContain('- src/api/users.ts');
    const resumed = model.requests.length;
    expect((await main.prompt(session, 'First question after the compaction.')).status).toBe(200);
    const next = requestsSince(model, resumed, (request) => request.lastUser.includes('First question after the compaction'))[0];
    expect(occurrences(next?.system ?? '')).toBe(1);
    expect((next?.system ?? '').split('Answer in British English.').length - 1).toBe(1);
    model.setScript(defaultScript);
  });

  it('a 1 MB session compacts while the server keeps answering, and compacted again reads only its newest page', async () => {
    const session = await main.createSession();
    const texts = generatedProse(21, 6 * 1024 * 1024);
    let stored = 0;
    for (const chunk of proseInPieces(texts, 60_000, 1_050_000)) {
      expect((await main.prompt(session, chunk, { noReply: true })).status).toBe(200);
      stored += chunk.length;
    }
    expect(stored).toBeGreaterThan(1_000_000);
    const before = model.requests.length;
    let done = false;
    const summarized = main.summarize(session, 90_000).finally(() => {
      done = true;
    });
    // The server keeps answering while the compaction runs; how fast is the benchmark's business, printed here.
    const probes: { status: number; ms: number }[] = [];
    while (!done) {
      const probe = await main.call('GET', `/session/${session}`, undefined, 10_000);
      if (!done) probes.push({ status: probe.status, ms: probe.ms });
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect((await summarized).status).toBe(200);
    expect(probes.length).toBeGreaterThan(0);
    expect(probes.filter((probe) => probe.status !== 200)).toEqual([]);
    console.log(`server answered ${probes.length} probes during the compaction; slowest ${Math.round(Math.max(...probes.map((probe) => probe.ms)))} ms`);
    const compaction = requestsSince(model, before, (request) => request.isCompaction).at(-1);
    expect(compaction?.lastUser).toContain(PRESERVATION_HEADING);
    // Compacted again after two more messages: only the pages since are read, the rest of the window is remembered.
    for (const text of texts.slice(-2)) expect((await main.prompt(session, text, { noReply: true })).status).toBe(200);
    const again = model.requests.length;
    const printed = server?.output().length ?? 0;
    expect((await main.summarize(session, 90_000)).status).toBe(200);
    expect(requestsSince(model, again, (request) => request.isCompaction).at(-1)?.lastUser).toContain(PRESERVATION_HEADING);
    const line = / \(read (\d+) messages in (\d+) pages?, (\d+) remembered, /;
    const read = await until(async () => line.exec(server?.output().slice(printed) ?? '') ?? undefined, 10_000, 'the second compaction\'s log line');
    expect(Number(read[2])).toBe(1);
    // The first page already holds every message written since: the rest comes from the first read.
    expect(Number(read[3])).toBeGreaterThan(0);
  });

  it('shutdown: the server exits on SIGTERM with the pool running, without SIGKILL, leaving nothing behind', async () => {
    const running = server as OpenCodeServer;
    server = undefined;
    await expectCleanShutdown(fixture, running);
  });
});
