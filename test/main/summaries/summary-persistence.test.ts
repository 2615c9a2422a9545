import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startHarness as startPlugin, type Harness } from '../../support/plugin-harness.js';
import { filePool } from '../../support/file-pool.js';
import { createFakeHost, message } from '../../../support/fake-host.js';
import { buildSummaryThought, createSummaryPersistence, type SummaryPersistenceDeps } from '../../../src/main/summaries/summary-persistence.js';
import { createBackgroundWork } from '../../../src/main/shared/background-work.js';
import { createLogger } from '../../../src/main/shared/logger.js';
import { resolvePluginOptions } from '../../../src/main/options/plugin-options.js';
import { HOST_READ_DEADLINE_MS } from '../../../src/main/host/host-client.js';
import { createCompactedSummaries } from '../../../src/main/summaries/compacted-summary.js';
import { resolveProject } from '../../../src/main/shared/project.js';
import { MAX_PAYLOAD_BYTES } from '../../../src/main/memory/cli/maenifold-client.js';

// One worker for every plugin of the file, the restarted one below too: what a restart must find again is
// the chain on disk, not a worker of its own.
const pool = filePool();
/** Without the session context: its CLI calls at each start have nothing to do with the summaries. */
const startHarness = (): Promise<Harness> => startPlugin({ sessionStart: false }, {}, undefined, { pool: pool() });

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** The chain's key: the harness's project, by its worktree. */
const KEY = resolveProject('', '/work/acme-shop').key;

function compacted(id: string, summary: string): unknown[] {
  return [
    message('m1', 'user', 'work on the [[cache-layer]]'),
    message('m2', 'user', 'compact', {}, [{ type: 'compaction', auto: false }]),
    message('m3', 'assistant', summary, { summary: true, mode: 'compaction' }),
    message('m4', 'assistant', 'later turn', {}),
  ].map((entry) => ({ ...(entry as object), sessionID: id }));
}

async function fire(h: Harness, sessionID: string): Promise<void> {
  await h.plugin.hooks.event?.({ event: { type: 'session.compacted', properties: { sessionID } } });
  await h.plugin.background.idle();
}

async function thinking(h: Harness): Promise<{ payload: Record<string, unknown> }[]> {
  return (await h.double.calls()).filter((call) => call.tool === 'SequentialThinking') as { payload: Record<string, unknown> }[];
}

describe('buildSummaryThought', () => {
  it('should sanitize, cap, and lead with a link outside any fence', () => {
    const thought = buildSummaryThought('Acme Shop', 'ses_1', '```\nunclosed fence [[in-code]]\u0000', 32_000);
    expect(thought.split('\n')[0]).toContain('[[acme-shop]]');
    expect(thought).not.toContain('\u0000');
    const long = buildSummaryThought('p', 's', '€'.repeat(40_000), 32_000);
    expect(long.length).toBeLessThanOrEqual(50_000);
    expect(Buffer.byteLength(long)).toBeLessThan(MAX_PAYLOAD_BYTES);
  });

  it('should name the whole session id, without markup: ids share their first characters', () => {
    const a = buildSummaryThought('p', 'ses_4f2a91c07ffeYb3LqP0aZt2mQw', 'done', 32_000);
    const b = buildSummaryThought('p', 'ses_4f2a91c07ffeK8sVn1RrTx5uHd]] [[x', 'done', 32_000);
    expect(a.split('\n')[0]).toContain('session ses_4f2a91c07ffeYb3LqP0aZt2mQw in');
    expect(b.split('\n')[0]).toContain('session ses_4f2a91c07ffeK8sVn1RrTx5uHdx in');
  });
});

describe('summary persistence', () => {
  it('should start a chain, continue it across compactions and restarts, and write plain markdown', async () => {
    harness = await startHarness();
    const summary = '## Goal\nShip the [[cache-layer]] with [[redis]].\n\n## Done\n- wrote `src/cache.ts`';
    harness.host.setMessages('ses_a', compacted('ses_a', summary));
    await fire(harness, 'ses_a');
    harness.host.setMessages('ses_b', compacted('ses_b', 'Second [[redis]] summary.'));
    await fire(harness, 'ses_b');
    const [first, second] = await thinking(harness);
    expect(first?.payload).toMatchObject({ thoughtNumber: 0, nextThoughtNeeded: false });
    expect(first?.payload['sessionId']).toBeUndefined();
    expect(first?.payload['response']).toContain(summary);
    expect(first?.payload['response']).not.toMatch(/^```/m);
    expect(second?.payload).toMatchObject({ thoughtNumber: 1 });
    const chainId = second?.payload['sessionId'] as string;
    expect(chainId).toMatch(/^session-\d+-\d{5}$/);

    const saved = JSON.parse(await readFile(join(harness.stateDir, 'summary-chains.json'), 'utf8'));
    expect(saved[KEY]).toMatchObject({ sessionId: chainId, thoughtNumber: 1 });

    // A restart reads the chain from disk and continues it.
    const { createMaenifoldPlugin } = await import('../../../src/main/plugin/create-plugin.js');
    const restarted = await createMaenifoldPlugin(
      { client: harness.host.client, worktree: '/work/acme-shop' },
      { sessionStart: false },
      { ...process.env, ...harness.double.env, MAENIFOLD_STATE_DIR: harness.stateDir },
      { pool: pool() },
    );
    harness.host.setMessages('ses_c', compacted('ses_c', 'Third [[redis]] summary.'));
    await restarted.hooks.event?.({ event: { type: 'session.compacted', properties: { sessionID: 'ses_c' } } });
    await restarted.dispose();
    expect((await thinking(harness))[2]?.payload).toMatchObject({ sessionId: chainId, thoughtNumber: 2 });
  });

  it('should start a new chain when the remembered one is gone', async () => {
    harness = await startHarness();
    const file = join(harness.stateDir, 'summary-chains.json');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(file, JSON.stringify({ [KEY]: { sessionId: 'session-1700000000000-12345', thoughtNumber: 4, updatedAt: '' } }));
    harness.host.setMessages('ses_d', compacted('ses_d', 'A [[redis]] summary.'));
    await fire(harness, 'ses_d');
    const calls = await thinking(harness);
    expect(calls.map((call) => call.payload['thoughtNumber'])).toEqual([5, 0]);
    await harness.plugin.logger.flush();
    expect(harness.host.linesWith('is gone (SESSION_MISSING)')).toHaveLength(1);
    const saved = JSON.parse(await readFile(file, 'utf8'));
    expect(saved[KEY].thoughtNumber).toBe(0);
    expect(saved[KEY].sessionId).not.toBe('session-1700000000000-12345');
  });

  it('should ignore other events and sessions without a summary', async () => {
    harness = await startHarness();
    harness.host.setMessages('ses_e', [message('m1', 'user', 'nothing compacted')]);
    await harness.plugin.hooks.event?.({ event: { type: 'session.idle', properties: { sessionID: 'ses_e' } } });
    await fire(harness, 'ses_e');
    expect(await thinking(harness)).toEqual([]);
  });
});

describe('createSummaryPersistence', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("should give up a summary when the host's message list never answers, so background work ends", async () => {
    vi.useFakeTimers();
    const host = createFakeHost();
    host.client.session.messages = () => new Promise<never>(() => undefined);
    const background = createBackgroundWork(() => undefined);
    const logger = createLogger(host.client);
    // Nothing past the message list is reached: the store, runner and delivery are never called.
    const unused = {} as never;
    const context: SummaryPersistenceDeps = { options: resolvePluginOptions({}, {}).options, logger, memory: { available: true } as never, runner: unused, summaries: createCompactedSummaries(host.client), project: resolveProject('acme', ''), background, delivery: unused, sessionItems: unused };
    await createSummaryPersistence(context)({ event: { type: 'session.compacted', properties: { sessionID: 'ses_1' } } });
    let idle = false;
    void background.idle().then(() => (idle = true));
    // The paged read counts its budget on the real clock, so it may end a few milliseconds early.
    await vi.advanceTimersByTimeAsync(HOST_READ_DEADLINE_MS - 50);
    expect(idle).toBe(false);
    await vi.advanceTimersByTimeAsync(50);
    expect(idle).toBe(true);
    await logger.flush();
    expect(host.logs.map((line) => line.message)).toEqual([
      `summary: session ses_1: the host's message list did not answer within ${HOST_READ_DEADLINE_MS} ms; this summary is not persisted`,
    ]);
  });
});
