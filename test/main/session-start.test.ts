import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, STRONG_GRAPH, type Harness } from '../support/plugin-harness.js';
import { SESSION_CONTEXT_HEADING } from '../../src/main/session-start.js';
import { countTokens } from '../../src/workers/stages/tokens.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function systemFor(h: Harness, sessionID: string, system: string[] = ['You are the build agent.']): Promise<string[]> {
  const output = { system };
  await h.plugin.hooks['experimental.chat.system.transform']?.({ sessionID, model: { id: 'm' } } as never, output);
  return output.system;
}

describe('session start', () => {
  it('should append strong graph context to the existing system entry once per session, within budget', async () => {
    harness = await startHarness({}, {}, STRONG_GRAPH);
    const system = await systemFor(harness, 'ses_1');
    expect(system).toHaveLength(1);
    expect(system[0]).toMatch(/^You are the build agent\.\n\n## Knowledge Graph Context/);
    expect(system[0]).toContain('Context for CONCEPT: cache-layer');
    expect(system[0]).not.toContain('Context for CONCEPT: acme-shop');
    const block = (system[0] as string).slice((system[0] as string).indexOf(SESSION_CONTEXT_HEADING));
    expect(countTokens(block)).toBeLessThanOrEqual(4000);
    // The weak concept (one shared file) is skipped.
    expect(block).not.toContain('Context for CONCEPT: lonely-topic');
    const calls = await harness.double.calls();
    expect(calls.filter((call) => call.tool === 'SearchMemories')[0]?.payload).toMatchObject({ query: 'acme-shop', mode: 'Hybrid' });
    expect(calls.filter((call) => call.tool === 'RecentActivity')[0]?.payload).toMatchObject({ timespan: '1.00:00:00', includeContent: true });
    expect(calls.filter((call) => call.tool === 'BuildContext').every((call) => (call.payload as { depth: number; maxEntities: number }).depth === 1 && (call.payload as { maxEntities: number }).maxEntities === 3)).toBe(true);
    // The project's name and the plugin's own words are on every note: never offered as concepts.
    const asked = calls.filter((call) => call.tool === 'BuildContext').map((call) => (call.payload as { conceptName: string }).conceptName);
    expect(asked).toContain('cache-layer');
    expect(asked).not.toContain('acme-shop');
    expect(asked).not.toContain('compaction');

    const before = calls.length;
    const again = await systemFor(harness, 'ses_1', [system[0] as string]);
    expect(again).toEqual(system);
    const other = await systemFor(harness, 'ses_2');
    expect(other[0]).toContain(SESSION_CONTEXT_HEADING);
    // Built once ahead, reused: no new CLI calls for later sessions.
    expect((await harness.double.calls()).length).toBe(before);
  });

  it("should never offer the plugin's own words or the project as concepts, even when older notes link them", async () => {
    const older = (n: number) => `# Compaction Summary\n\n**Project**: [[acme-shop]]\n\n- [[redis]]\n- [[cache-layer]]\n\nThis [[compaction]] summary number ${n}.`;
    harness = await startHarness({}, {}, { ...STRONG_GRAPH, 'sessions/compaction/a': older(1), 'sessions/compaction/b': older(2), 'sessions/compaction/c': older(3) });
    const [entry] = await systemFor(harness, 'ses_old');
    expect(entry).toContain('Context for CONCEPT: redis');
    const asked = (await harness.double.calls()).filter((call) => call.tool === 'BuildContext').map((call) => (call.payload as { conceptName: string }).conceptName);
    expect(asked.length).toBeGreaterThan(0);
    expect(asked).not.toContain('compaction');
    expect(asked).not.toContain('acme-shop');
  });

  it('should respect a smaller budget exactly', async () => {
    harness = await startHarness({ sessionStartTokens: 150, sessionStartConceptTokens: 100 }, {}, STRONG_GRAPH);
    const [entry] = await systemFor(harness, 'ses_small', ['']);
    const block = (entry as string).slice((entry as string).indexOf(SESSION_CONTEXT_HEADING));
    expect(block).toContain(SESSION_CONTEXT_HEADING);
    expect(countTokens(block)).toBeLessThanOrEqual(150);
  });

  it('should inject nothing and log why when the graph is empty', async () => {
    harness = await startHarness();
    const system = await systemFor(harness, 'ses_empty');
    expect(system).toEqual(['You are the build agent.']);
    await harness.plugin.logger.flush();
    expect(harness.host.linesWith('session context:').length).toBeGreaterThan(0);
  });

  it('should do nothing without the CLI, and warn once', async () => {
    harness = await startHarness({}, { MAENIFOLD_CLI: '' });
    expect(await systemFor(harness, 'ses_x')).toEqual(['You are the build agent.']);
    await harness.plugin.logger.flush();
    expect(harness.host.linesWith('maenifold CLI not found')).toHaveLength(1);
  });

  it('should leave the system prompt alone when the CLI hangs, within the total deadline', async () => {
    harness = await startHarness({ contextTimeoutMs: 300, contextTotalTimeoutMs: 800 }, { MAENIFOLD_DOUBLE_FAULT: 'hang' });
    expect(await systemFor(harness, 'ses_hang')).toEqual(['You are the build agent.']);
  });

  it('should be switchable off', async () => {
    harness = await startHarness({ sessionStart: false }, {}, STRONG_GRAPH);
    expect(await systemFor(harness, 'ses_off')).toEqual(['You are the build agent.']);
    expect((await harness.double.calls()).filter((call) => call.tool !== 'Sync')).toEqual([]);
  });
});
