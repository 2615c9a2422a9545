/**
 * Goal frames in the real OpenCode server (the pinned `opencode-ai`), with
 * the packed plugin, a fake model that calls the flame_* tools, and the
 * maenifold CLI double: a frame from push to the parent's next request, and
 * an overflow inside a frame.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DoubleRoot } from '../../support/maenifold-double.js';
import { createProject, LEAN_POOL, until } from '../../support/opencode/runtime.js';
import { defaultScript, type FakeModel, type ModelScript } from '../../support/opencode/fake-model.js';
import type { OpenCodeServer } from '../../support/opencode/opencode-server.js';
import { projectApi, type ProjectApi } from '../../support/opencode/api.js';
import { closeFixture, openFixture, requestsSince, serverEnv, startServer, type ServerFixture } from './server-fixture.js';
import { frameFileFor } from '../../src/main/frames/frame-store.js';
import { FRAME_COMPLETION_HEADING, FRAME_CONTINUATION_HEADING } from '../../src/main/frames/frame-compaction.js';
import { FRAME_HEADINGS } from '../../src/main/frames/frame-context.js';
import type { Frame } from '../../src/main/frames/frame-state.js';

const GOAL = 'Add a [[redis]] cache to the users API';
const SUMMARY_MARK = 'CHILD-SUMMARY-91';
const RAW_MARK = 'RAW-CHILD-TRACE-17';

let fixture: ServerFixture;
let model: FakeModel;
let double: DoubleRoot;
let server: OpenCodeServer | undefined;
let api: ProjectApi;
let projectDir = '';
let stateDir = '';

async function frames(): Promise<Record<string, Frame>> {
  try {
    return (JSON.parse(await readFile(frameFileFor(stateDir, projectDir), 'utf8')) as { frames: Record<string, Frame> }).frames;
  } catch {
    return {};
  }
}

async function childrenOf(sessionID: string): Promise<string[]> {
  const listed = await api.call<{ id: string }[]>('GET', `/session/${sessionID}/children`);
  return Array.isArray(listed.body) ? listed.body.map((session) => session.id) : [];
}

/** Pushes, pops and answers for the frame scenarios; everything else as the default script. */
function frameScript(goal: string, overflow = false): ModelScript {
  return (request) => {
    if (request.isCompaction) {
      return request.lastUser.includes(FRAME_COMPLETION_HEADING)
        ? { text: `## Frame result\n${SUMMARY_MARK}: the [[redis]] cache serves users from src/cache.ts; we decided on a 60 s TTL.` }
        : defaultScript(request);
    }
    if (request.lastUser.includes('PUSHFRAME') && !request.afterTool) return { toolCall: { name: 'flame_push', args: { goal, successCriteria: 'users are served from the cache' } } };
    if (request.lastUser.includes('POPFRAME') && !request.afterTool) return { toolCall: { name: 'flame_pop', args: { status: 'completed', results: 'Cache added' } } };
    if (request.lastUser.includes('STATUSFRAME') && !request.afterTool) return { toolCall: { name: 'flame_status', args: {} } };
    if (request.lastUser.includes('EXPLORE')) return { text: `${RAW_MARK}: I read forty files of the cache layer.` };
    return { text: `Reply ${request.n}.`, promptTokens: overflow && request.lastUser.includes('BIGTOKENS') ? 15_000 : 100 };
  };
}

beforeAll(async () => {
  fixture = await openFixture();
  ({ model, double } = fixture);
  projectDir = await createProject(fixture.scratch, 'frames-shop', fixture.template, { pluginOptions: { cli: double.cliPath, sessionStart: false, pool: LEAN_POOL }, modelUrl: model.url, snapshot: false });
  const env = await serverEnv(fixture);
  stateDir = join(env['XDG_STATE_HOME'] as string, 'opencode-maenifold');
  server = await startServer(fixture, projectDir, env);
  api = await projectApi(server.url, projectDir);
});

afterAll(async () => {
  api?.close();
  await closeFixture(fixture, server);
});

describe('goal frames in the real OpenCode server', () => {
  it('push, work, pop: the completion instructions reach the compaction, the summary lands in the frame and reaches the parent without the raw messages', async () => {
    const before = model.requests.length;
    model.setScript(frameScript(GOAL));
    const parent = await api.createSession('parent');
    expect((await api.prompt(parent, 'PUSHFRAME for the cache', { timeoutMs: 90_000 })).status).toBe(200);
    expect(requestsSince(model, before, () => true)[0]?.tools).toEqual(expect.arrayContaining(['flame_push', 'flame_pop', 'flame_status']));
    // The packed plugin has no copy of the optional peer: the helper comes from the project's .opencode folder.
    expect(server?.output()).toContain(`frames: flame_* tools built with the tool helper of ${join(projectDir, '.opencode', 'node_modules')}`);
    const [child] = await childrenOf(parent);
    expect(child).toBeDefined();
    const frame = (await frames())[child as string];
    expect(frame).toMatchObject({ parentID: parent, goal: GOAL, status: 'in_progress' });

    expect((await api.prompt(child as string, 'EXPLORE the cache layer')).status).toBe(200);
    const inChild = requestsSince(model, before, (request) => request.lastUser.includes('EXPLORE'))[0];
    expect(inChild?.system).toContain(FRAME_HEADINGS.current);
    expect(inChild?.system).toContain(`Goal: ${GOAL}`);

    expect((await api.prompt(child as string, 'POPFRAME, the cache works', { timeoutMs: 90_000 })).status).toBe(200);
    await api.waitForEvent((event) => event.type === 'session.compacted' && event.properties?.['sessionID'] === child, 60_000, 'session.compacted of the frame');
    const compaction = requestsSince(model, before, (request) => request.isCompaction).at(-1);
    expect(compaction?.lastUser).toContain(FRAME_COMPLETION_HEADING);
    expect(compaction?.lastUser).toContain(`- Goal: ${GOAL}`);
    expect(compaction?.lastUser).toContain('- Reported outcome: completed \u2014 Cache added');
    expect(compaction?.lastUser).not.toContain(FRAME_CONTINUATION_HEADING);

    const done = await until(async () => {
      const found = (await frames())[child as string];
      return found?.status === 'completed' ? found : undefined;
    }, 20_000, 'the frame to complete');
    expect(done.compactionSummary).toContain(SUMMARY_MARK);
    expect(done.compactionTimestamp).toMatch(/^\d{4}-\d{2}-\d{2}T/);

    const next = model.requests.length;
    expect((await api.prompt(parent, 'STATUSFRAME and what next?', { timeoutMs: 90_000 })).status).toBe(200);
    const parentRequest = requestsSince(model, next, (request) => request.lastUser.includes('STATUSFRAME'))[0];
    expect(parentRequest?.system).toContain(FRAME_HEADINGS.finished);
    expect(parentRequest?.system).toContain(SUMMARY_MARK);
    expect(JSON.stringify(parentRequest?.messages)).not.toContain(RAW_MARK);
    expect(JSON.stringify(parentRequest?.messages)).not.toContain('EXPLORE the cache layer');
    const statusResult = requestsSince(model, next, (request) => request.afterTool && request.lastUser.includes('STATUSFRAME')).at(-1);
    expect(JSON.stringify(statusResult?.messages.at(-1)?.content ?? '')).toContain(`[completed] ${GOAL}`);

    // The frame's summary went the way of every compaction summary: a thought in the project's chain.
    const thought = await until(async () => {
      const calls = (await double.calls()).filter((call) => call.tool === 'SequentialThinking');
      return calls.find((call) => JSON.stringify(call.payload).includes(SUMMARY_MARK));
    }, 20_000, 'the frame summary thought');
    expect(String((thought.payload as { response: string }).response)).toContain('[[frames-shop]]');
  });

  it('an overflow inside a frame gets the continuation instructions and leaves the frame in progress', async () => {
    const goal = 'Refactor the [[api-gateway]] routing';
    model.setScript(frameScript(goal, true));
    const parent = await api.createSession('parent 2');
    expect((await api.prompt(parent, 'PUSHFRAME for the gateway', { timeoutMs: 90_000 })).status).toBe(200);
    const [child] = await childrenOf(parent);
    expect(child).toBeDefined();
    const before = model.requests.length;
    await api.prompt(child as string, 'Some context first: we chose to route by tenant because it isolates the load.');
    await api.prompt(child as string, 'BIGTOKENS now', { timeoutMs: 90_000 });
    await api.waitForEvent((event) => event.type === 'session.compacted' && event.properties?.['sessionID'] === child, 60_000, 'session.compacted after overflow');
    const compaction = requestsSince(model, before, (request) => request.isCompaction).at(-1);
    expect(compaction?.lastUser).toContain(FRAME_CONTINUATION_HEADING);
    expect(compaction?.lastUser).toContain(`- Goal: ${goal}`);
    expect(compaction?.lastUser).not.toContain(FRAME_COMPLETION_HEADING);
    await until(async () => (server?.output().includes(`frames: frame ${child} compacted while in_progress; it stays in_progress`) ? true : undefined), 20_000, 'the capture to pass over the frame');
    const frame = (await frames())[child as string];
    expect(frame?.status).toBe('in_progress');
    expect(frame?.compactionSummary).toBeUndefined();
    model.setScript(defaultScript);
  });
});
