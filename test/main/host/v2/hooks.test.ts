/**
 * The plugin on OpenCode 2.x, through the package's default export in the contract host: the
 * `subagent` tool's hooks (graph context appended to the task, a ConfessionReport demanded of the
 * child session with prompt and wait, its answer read over HTTP), the goal-frame tools added with
 * `ctx.tool.transform`, and hooks and events of every malformed shape, none of which may make a hook
 * throw.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { TASK_CONTEXT_HEADING } from '../../../../src/main/graph/task-augmentation.js';
import { CONFESSION_MARKER } from '../../../../src/main/summaries/confession-report.js';
import type { LocationHost } from '../../../../support/opencode-v2/location-host.js';
import { STRONG_GRAPH } from '../../../support/plugin-harness.js';
import { memoryFilesWith, summaryText, useScenario, violations } from './scenario.js';

const scenario = useScenario(STRONG_GRAPH);
let shop: LocationHost;

beforeAll(async () => {
  // The seeded graph belongs to no project: the whole memory is read, as `memoryScope: "all"` asks. Through
  // the CLI double: the file store's first answers after a cold start come from an index still being built.
  shop = await scenario().boot(await scenario().folder('shop'), { memoryScope: 'all' });
});

const PROMPT = 'Refactor the [[Redis]] client and check the [[Cache Layer]].';
const ANSWER = 'Done: the Redis client is refactored.';
const CONFESSED = `${ANSWER}\n\n## ${CONFESSION_MARKER}\n1. Refactor the client: ✅, see src/redis.ts.`;

describe('default export, setup: the subagent tool', () => {
  it('should append graph context to the task and demand a ConfessionReport of the child, appending its answer', async () => {
    const call = await shop.subagent('ses_d1', { prompt: PROMPT, description: 'refactor' }, [ANSWER, CONFESSED]);
    expect(call.prompt.startsWith(`${PROMPT}\n\n---\n\n${TASK_CONTEXT_HEADING}`)).toBe(true);
    expect(call.prompt).toContain('Context for CONCEPT: redis');
    const child = scenario().service.sessions.get(call.childID);
    expect(child?.prompts).toHaveLength(2);
    expect(child?.prompts[1]).toContain(CONFESSION_MARKER);
    expect(child?.queued).toEqual([]);
    expect(call.result.output).toBe(`${ANSWER}\n\n${CONFESSED}`);
    // The child's answer was read over HTTP, with the server's password.
    const reads = scenario().service.server.requests.filter((request) => request.url.startsWith(`/api/session/${call.childID}/message`));
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.every((request) => request.status === 200)).toBe(true);
    await scenario().waitForLine(`confession: received from ${call.childID} on attempt 1`);
    expect(violations(scenario().service)).toEqual([]);
  });

  it('should leave a task without links, and a confessed answer, as they were', async () => {
    const call = await shop.subagent('ses_d2', { prompt: 'Tidy the imports.' }, [CONFESSED]);
    expect(call.prompt).toBe('Tidy the imports.');
    expect(scenario().service.sessions.get(call.childID)?.prompts).toHaveLength(1);
    expect(call.result.output).toBe(CONFESSED);
    expect(violations(scenario().service)).toEqual([]);
  });
});

describe('default export, setup: goal-frame tools', () => {
  it('should add flame_push, flame_pop and flame_status with valid definitions, and answer flame_status', async () => {
    const tools = await shop.tools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['flame_pop', 'flame_push', 'flame_status']);
    expect(await shop.callTool('ses_e1', 'flame_status', {})).toContain('No goal frames yet');
    expect(await shop.callTool('ses_e1', 'flame_pop', { status: 'completed' })).toContain('has no frame in progress');
    // 2.x offers plugins no call to start a session: a frame cannot be pushed, and the tool says so in one line.
    expect(await shop.callTool('ses_e1', 'flame_push', { goal: 'Split the cart module.' })).toBe('flame_push: this OpenCode cannot create sessions; no frame was pushed.');
    expect(violations(scenario().service)).toEqual([]);
  });
});

describe('default export, setup: malformed input', () => {
  const huge = 'x'.repeat(1_000_000);
  const cases: [Parameters<LocationHost['rawHook']>[0], unknown][] = [
    ['context', {}],
    ['context', { sessionID: 'ses_h1', system: null, messages: null }],
    ['context', { sessionID: 42, kind: 'primary', system: [], messages: 'none' }],
    ['context', { sessionID: 'ses_h2', kind: 'sideways', system: [{ type: 'text', text: huge }], messages: [] }],
    ['context', { sessionID: '', kind: 'primary', system: [], messages: [] }],
    ['compaction', {}],
    ['compaction', { sessionID: 'ses_h3', system: [], messages: [{ role: 'user', content: huge }] }],
    ['compaction', { sessionID: 'ses_h4', system: [], messages: [{ role: 42, content: {} }, null, { content: [{ type: 'text' }] }] }],
    ['compaction', { sessionID: 'ses_h5', system: 'not a list', messages: null, result: null }],
    ['execute.before', {}],
    ['execute.before', { tool: 'subagent', sessionID: 'ses_h6', input: null }],
    ['execute.before', { tool: 'subagent', sessionID: 'ses_h6', input: { prompt: 42 } }],
    ['execute.before', { tool: 'subagent', sessionID: 'ses_h6', input: { prompt: `[[redis]] ${huge}` } }],
    ['execute.after', { tool: 'subagent', sessionID: 'ses_h7', input: {}, result: null }],
    ['execute.after', { tool: 'subagent', sessionID: 'ses_h7', input: {}, result: { output: 42, metadata: { sessionID: 42 } } }],
    ['execute.after', { tool: 'subagent', sessionID: 'ses_h7', input: {}, result: { output: 'no report', metadata: { sessionID: 'ses_missing' } } }],
    ['execute.after', { tool: 'subagent', sessionID: 'ses_h7', input: {}, status: 'error', error: { message: 'boom' } }],
  ];

  it('should never throw from a hook handed a malformed event', async () => {
    for (const [name, event] of cases) await shop.rawHook(name, event);
    expect(violations(scenario().service)).toEqual([]);
  });

  it('should survive malformed bus events and still keep the next summary', async () => {
    const session = shop.createSession();
    shop.turn(session, 'Rename the cache module.', 'We decided to rename cache.ts to cache-layer.ts because the name was taken.');
    // A model call first: the plugin then takes the session for one of its own, and reads its events.
    await shop.modelCall(session, 'primary');
    for (const event of [
      null,
      undefined,
      42,
      'session.compaction.ended',
      {},
      { type: 42 },
      { type: 'session.compaction.ended' },
      { type: 'session.compaction.ended', data: null },
      { type: 'session.compaction.ended', data: { sessionID: 42, text: {} } },
      { type: 'session.compaction.ended', data: { sessionID: 'ses_missing', text: 'a summary of nothing' } },
      { type: 'session.compaction.ended', data: { sessionID: session, text: '', failure: 'nothing-to-fold' } },
      { type: 'session.compaction.ended', data: { sessionID: session, text: huge, reason: 'auto' } },
      { type: 'session.compaction.ended', properties: { sessionID: session } },
      { type: 'session.compaction.delta', data: { sessionID: session, text: 'par' } },
    ]) {
      shop.publish(event);
    }
    const compaction = await shop.compact(session, { summary: summaryText('MARK-AFTER-GARBAGE') });
    expect(compaction.resultSet).toBe(false);
    // Both summaries reach the chain: the huge one cut to the chain's bound, and the next one.
    let chain = '';
    await vi.waitFor(
      async () => {
        const [kept] = await memoryFilesWith(scenario().double, 'x'.repeat(1_000));
        expect(kept).toMatch(/^thinking\/sequential\//);
        expect(await memoryFilesWith(scenario().double, 'MARK-AFTER-GARBAGE')).toHaveLength(1);
        chain = kept ?? '';
      },
      { timeout: 15_000, interval: 50 },
    );
    expect((await readFile(join(scenario().double.root, 'memory', chain), 'utf8')).length).toBeLessThan(huge.length / 10);
    expect(violations(scenario().service)).toEqual([]);
  });
});

describe('default export, setup: options', () => {
  it('should take its options from ctx.options, let a MAENIFOLD_* variable win, and warn of a bad value in its log', async () => {
    const before = (await scenario().log()).length;
    vi.stubEnv('MAENIFOLD_FRAMES', 'true');
    const location = await scenario().boot(await scenario().folder('options'), { frames: false, confession: false, compactionTokens: 'lots' });
    vi.stubEnv('MAENIFOLD_FRAMES', undefined);
    expect((await location.tools()).map((tool) => tool.name)).toContain('flame_status');
    // `confession: false` from ctx.options: an answer without a report is passed on, its child not asked again.
    const call = await location.subagent('ses_o1', { prompt: 'Tidy the imports.' }, [ANSWER]);
    expect(scenario().service.sessions.get(call.childID)?.prompts).toHaveLength(1);
    expect(call.result.output).toBe(ANSWER);
    // The cleanup drains the log file.
    await location.unload();
    const lines = (await scenario().log()).slice(before);
    expect(lines.filter((line) => / WARN .*compactionTokens/.test(line)), lines.join('\n')).toHaveLength(1);
    expect(violations(scenario().service)).toEqual([]);
  });
});
