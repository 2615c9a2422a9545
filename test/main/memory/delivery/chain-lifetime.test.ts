import { mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, type TestContext } from 'vitest';
import { createDelivery, idempotencyKey, type Delivery } from '../../../../src/main/memory/delivery/delivery.js';
import { createOutbox } from '../../../../src/main/memory/delivery/outbox.js';
import { createChainStore, type ChainRecord, type ChainState } from '../../../../src/main/memory/delivery/chain-store.js';
import { locateCli } from '../../../../src/main/memory/cli/cli-locator.js';
import { createMaenifoldClient } from '../../../../src/main/memory/cli/maenifold-client.js';
import { createFileStore } from '../../../../src/main/memory/files/file-store.js';
import type { MemoryPort } from '../../../../src/main/memory/memory-port.js';
import { readProjectMemory } from '../../../../src/main/graph/project-memory.js';
import { resolveProject } from '../../../../src/main/shared/project.js';
import { createLogger } from '../../../../src/main/shared/logger.js';
import { createDoubleRoot, type DoubleRoot } from '../../../../support/maenifold-double.js';
import { createFakeHost, type FakeHost } from '../../../../support/fake-host.js';
import { filePool } from '../../../support/file-pool.js';
import { scratchFolders } from '../../../support/scratch.js';

const pool = filePool();
const newFolder = scratchFolders('chain-lifetime');
type Cleanup = TestContext['onTestFinished'];
type StoreKind = 'maenifold' | 'files';

interface Rig {
  double: DoubleRoot;
  stateDir: string;
  host: FakeHost;
  clock: { now: number };
  /** The store; `env` is the double's, `storeNow` the file store's clock. */
  memory(env?: Record<string, string>, storeNow?: () => number): MemoryPort;
  delivery(memory: MemoryPort, rolloverBytes?: number): Delivery;
}

async function rig(kind: StoreKind, cleanup: Cleanup): Promise<Rig> {
  const double = await createDoubleRoot();
  cleanup(() => double.cleanup());
  const stateDir = await newFolder(cleanup);
  const host = createFakeHost();
  const clock = { now: Date.UTC(2026, 10, 22, 12) };
  const logger = createLogger(host.client);
  return {
    double,
    stateDir,
    host,
    clock,
    memory(env = {}, storeNow) {
      if (kind === 'maenifold') return createMaenifoldClient(locateCli(double.cliPath, process.env), { ...process.env, ...double.env, ...env });
      const store = createFileStore({ root: double.root, stateDir, runner: pool(), logger, agent: 'agent', index: { freshForMs: 0, persistDelayMs: 0 }, ...(storeNow ? { now: storeNow } : {}) });
      cleanup(() => store.close());
      return store;
    },
    delivery: (memory, rolloverBytes) =>
      createDelivery({
        memory,
        outbox: createOutbox(join(stateDir, 'outbox'), () => clock.now),
        chains: createChainStore(stateDir),
        logger,
        timeoutMs: 5_000,
        now: () => clock.now,
        ...(rolloverBytes !== undefined ? { rolloverBytes } : {}),
      }),
  };
}

/** Every thought session's file under the root, by session id. */
async function sessions(double: DoubleRoot): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const base = join(double.root, 'memory', 'thinking', 'sequential');
  const names = await readdir(base, { recursive: true }).catch(() => [] as string[]);
  for (const name of names.filter((file) => file.endsWith('.md'))) found.set(name.slice(name.lastIndexOf('/') + 1, -3), join(base, name));
  return found;
}

const thoughtsIn = (text: string): number => text.match(/^## Thought /gm)?.length ?? 0;
const outboxFiles = async (stateDir: string): Promise<string[]> => (await readdir(join(stateDir, 'outbox'))).filter((name) => name.endsWith('.json') || name.includes('.json.claim-'));

describe.concurrent('createDelivery', () => {
  for (const kind of ['maenifold', 'files'] as const) {
    it(`should go on in a new session linked to the last once a note would pass the bound, and give the next session the newest summary (${kind} store)`, async ({ onTestFinished }) => {
      const r = await rig(kind, onTestFinished);
      const worktree = await newFolder(onTestFinished);
      const project = resolveProject('', worktree);
      const memory = r.memory();
      const delivery = r.delivery(memory, 4_096);
      const texts = [0, 1, 2, 3, 4].map((index) => `Summary ${index} of the cart work in [[redis]]. ${'Moved the sessions to SQLite. '.repeat(30)}`);
      for (const [index, response] of texts.entries()) await delivery.submitThought({ project: project.key, response, source: `ses_${index}` });
      const files = await sessions(r.double);
      expect(files.size).toBeGreaterThan(1);
      let thoughts = 0;
      for (const file of files.values()) {
        expect((await stat(file)).size).toBeLessThanOrEqual(4_096);
        thoughts += thoughtsIn(await readFile(file, 'utf8'));
      }
      expect(thoughts).toBe(texts.length);
      const chain = (await createChainStore(r.stateDir).get(project.key)) as ChainState;
      expect(chain.previousSessionId).toBeDefined();
      expect(files.has(chain.previousSessionId as string)).toBe(true);
      // Every session of the chain is the project's, for the scope of session start and task context.
      expect(new Set([...(chain.earlierSessionIds ?? []), chain.sessionId])).toEqual(new Set(files.keys()));
      // The new session links to the one it continues.
      expect(await readFile(files.get(chain.sessionId) as string, 'utf8')).toContain(`[[${chain.previousSessionId}]]`);
      const read = await readProjectMemory(memory, pool(), project, createChainStore(r.stateDir), {
        perCallTimeoutMs: 5_000,
        totalTimeoutMs: 10_000,
        maxNotes: 4,
        totalBudget: 2_000,
        summaryBudget: 1_000,
        summaryMaxChars: 4_000,
      });
      expect(read.memory?.text).toContain('Summary 4 of the cart work');
    });
  }

  it('should go on in a new session when the chain of an earlier version is too large to be read back', async ({ onTestFinished }) => {
    const r = await rig('maenifold', onTestFinished);
    const delivery = r.delivery(r.memory());
    await delivery.submitThought({ project: 'demo', response: 'First [[redis]] summary.', source: 'ses_a' });
    const first = (await createChainStore(r.stateDir).get('demo')) as ChainState;
    // As an earlier version recorded it: no size; its note answers more than a reply may hold.
    await createChainStore(r.stateDir).set('demo', { sessionId: first.sessionId, thoughtNumber: first.thoughtNumber, updatedAt: first.updatedAt });
    await r.delivery(r.memory({ MAENIFOLD_DOUBLE_FAULT: 'huge', MAENIFOLD_DOUBLE_FAULT_TOOLS: 'ReadMemory' })).submitThought({ project: 'demo', response: 'Second [[redis]] summary.', source: 'ses_b' });
    const chain = (await createChainStore(r.stateDir).get('demo')) as ChainState;
    expect(chain.sessionId).not.toBe(first.sessionId);
    expect(chain).toMatchObject({ thoughtNumber: 0, previousSessionId: first.sessionId });
    expect(thoughtsIn(await readFile((await sessions(r.double)).get(first.sessionId) as string, 'utf8'))).toBe(1);
  });

  it('should not hold later summaries behind one whose landing cannot be learned, nor send that one twice', async ({ onTestFinished }) => {
    const r = await rig('maenifold', onTestFinished);
    const healthy = r.memory();
    await r.delivery(healthy).submitThought({ project: 'demo', response: 'First [[redis]] summary.', source: 'ses_a' });
    const first = (await createChainStore(r.stateDir).get('demo')) as ChainState;
    // The second summary's call ended without an answer (its deadline) a moment ago; the third waits behind it.
    const secondKey = idempotencyKey('thought', 'demo', 'ses_b');
    const thirdKey = idempotencyKey('thought', 'demo', 'ses_c');
    const outbox = createOutbox(join(r.stateDir, 'outbox'), () => r.clock.now);
    await outbox.add({ key: secondKey, kind: 'thought', payload: { response: 'Second [[redis]] summary.' }, project: 'demo' });
    r.clock.now += 1;
    await outbox.add({ key: thirdKey, kind: 'thought', payload: { response: 'Third [[redis]] summary.' }, project: 'demo' });
    await createChainStore(r.stateDir).update('demo', (record) => ({
      record: { ...(record as ChainRecord), inFlight: { key: secondKey, sessionId: first.sessionId, thoughtNumber: 1, at: r.clock.now - 1_000, ended: true } } as ChainRecord,
      result: undefined,
    }));
    // maenifold cannot be read back; well within one settle time (2 × 5 s) of the call.
    await r.delivery(r.memory({ MAENIFOLD_DOUBLE_FAULT: 'garbage', MAENIFOLD_DOUBLE_FAULT_TOOLS: 'ReadMemory' })).flush();
    const chain = (await createChainStore(r.stateDir).record('demo')) as ChainState;
    expect(chain.recentKeys).toContain(thirdKey);
    expect(chain.sessionId).not.toBe(first.sessionId);
    expect(chain.unsettled?.map((flight) => flight.key)).toEqual([secondKey]);
    expect(await outboxFiles(r.stateDir)).toHaveLength(1);
    // maenifold answers again: the second had not landed, and is sent once.
    r.clock.now += 30_000;
    await r.delivery(healthy).flush();
    expect(await outboxFiles(r.stateDir)).toEqual([]);
    const all = await Promise.all([...(await sessions(r.double)).values()].map((file) => readFile(file, 'utf8')));
    for (const key of [secondKey, thirdKey]) expect(all.join('\n').split(key).length - 1).toBe(1);
    expect((await createChainStore(r.stateDir).record('demo'))?.unsettled).toBeUndefined();
  });

  it('should hold later summaries behind a dead sender\'s thought for one settle time at most, though its landing cannot be learned', async ({ onTestFinished }) => {
    const r = await rig('maenifold', onTestFinished);
    await r.delivery(r.memory()).submitThought({ project: 'demo', response: 'First [[redis]] summary.', source: 'ses_a' });
    const first = (await createChainStore(r.stateDir).get('demo')) as ChainState;
    const secondKey = idempotencyKey('thought', 'demo', 'ses_b');
    const thirdKey = idempotencyKey('thought', 'demo', 'ses_c');
    await createOutbox(join(r.stateDir, 'outbox'), () => r.clock.now).add({ key: thirdKey, kind: 'thought', payload: { response: 'Third [[redis]] summary.' }, project: 'demo' });
    // A sender died mid-call just now: its call may land for one settle time (2 × 5 s).
    const sentAt = r.clock.now;
    await createChainStore(r.stateDir).update('demo', (record) => ({
      record: { ...(record as ChainRecord), inFlight: { key: secondKey, sessionId: first.sessionId, thoughtNumber: 1, at: sentAt } } as ChainRecord,
      result: undefined,
    }));
    const unreadable = r.memory({ MAENIFOLD_DOUBLE_FAULT: 'garbage', MAENIFOLD_DOUBLE_FAULT_TOOLS: 'ReadMemory' });
    r.clock.now = sentAt + 5_000;
    await r.delivery(unreadable).flush();
    expect(await outboxFiles(r.stateDir)).toHaveLength(1);
    r.clock.now = sentAt + 2 * 5_000 + 1;
    await r.delivery(unreadable).flush();
    expect(await outboxFiles(r.stateDir)).toEqual([]);
    expect((await createChainStore(r.stateDir).record('demo'))?.recentKeys).toContain(thirdKey);
  });

  for (const kind of ['maenifold', 'files'] as const) {
    it(`should find a new chain's thought that landed after midnight, not send it again (${kind} store)`, async ({ onTestFinished }) => {
      const r = await rig(kind, onTestFinished);
      // Sent at 23:59:59 UTC; the store's clock read 00:00:01 when it made the session.
      r.clock.now = Date.UTC(2026, 10, 22, 23, 59, 59);
      const landedAt = Date.UTC(2026, 10, 23, 0, 0, 1);
      const memory = r.memory({ MAENIFOLD_DOUBLE_NOW: new Date(landedAt).toISOString() }, () => landedAt);
      const key = idempotencyKey('thought', 'demo', 'ses_a');
      await r.delivery(memory).submitThought({ project: 'demo', response: 'A [[redis]] summary.', source: 'ses_a' });
      const landed = (await createChainStore(r.stateDir).get('demo')) as ChainState;
      // As a sender killed before it learned the answer leaves it: the entry pending, the call in flight.
      await createOutbox(join(r.stateDir, 'outbox'), () => r.clock.now).add({ key, kind: 'thought', payload: { response: 'A [[redis]] summary.' }, project: 'demo' });
      await createChainStore(r.stateDir).set('demo', { inFlight: { key, sessionId: null, thoughtNumber: 0, at: r.clock.now } } as unknown as ChainState);
      r.clock.now += 2 * 5_000 + 1;
      await r.delivery(memory).flush();
      expect([...(await sessions(r.double)).keys()]).toEqual([landed.sessionId]);
      expect(await createChainStore(r.stateDir).get('demo')).toMatchObject({ sessionId: landed.sessionId, thoughtNumber: 0 });
      expect(await outboxFiles(r.stateDir)).toEqual([]);
    });
  }

  it('should keep aside a folder where the chain state should be, and deliver the summary', async ({ onTestFinished }) => {
    const r = await rig('maenifold', onTestFinished);
    await mkdir(join(r.stateDir, 'summary-chains.json', 'inner'), { recursive: true });
    await r.delivery(r.memory()).submitThought({ project: 'demo', response: 'A [[redis]] summary.', source: 'ses_a' });
    expect((await sessions(r.double)).size).toBe(1);
    expect((await readdir(r.stateDir)).filter((name) => name.startsWith('summary-chains.json.corrupt-'))).toHaveLength(1);
    expect((await stat(join(r.stateDir, 'summary-chains.json'))).isFile()).toBe(true);
    expect(await outboxFiles(r.stateDir)).toEqual([]);
  });
});
