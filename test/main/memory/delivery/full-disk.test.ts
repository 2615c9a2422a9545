import { spawnSync } from 'node:child_process';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, type TestContext } from 'vitest';
import { createDelivery, type Delivery } from '../../../../src/main/memory/delivery/delivery.js';
import { createOutbox } from '../../../../src/main/memory/delivery/outbox.js';
import { createChainStore, type ChainStore } from '../../../../src/main/memory/delivery/chain-store.js';
import { locateCli } from '../../../../src/main/memory/cli/cli-locator.js';
import { createMaenifoldClient } from '../../../../src/main/memory/cli/maenifold-client.js';
import type { MemoryPort } from '../../../../src/main/memory/memory-port.js';
import { createLogger } from '../../../../src/main/shared/logger.js';
import { createDoubleRoot, type DoubleRoot } from '../../../../support/maenifold-double.js';
import { createFakeHost, type FakeHost } from '../../../../support/fake-host.js';
import { canMount, mountTmpfs, type Mount } from '../../../support/scratch-mount.js';
import { scratchFolders } from '../../../support/scratch.js';

const mountable = await canMount();
const newFolder = scratchFolders('full-disk');
type Cleanup = TestContext['onTestFinished'];

interface Rig {
  double: DoubleRoot;
  host: FakeHost;
  spillDir: string;
  delivery(stateDir: string, env?: Record<string, string>, chains?: ChainStore): Delivery;
  thoughts(): Promise<number>;
}

async function rig(cleanup: Cleanup): Promise<Rig> {
  const double = await createDoubleRoot();
  cleanup(() => double.cleanup());
  const host = createFakeHost();
  const spillDir = join(await newFolder(cleanup), 'spill');
  return {
    double,
    host,
    spillDir,
    delivery: (stateDir, env = {}, chains = createChainStore(stateDir)) =>
      createDelivery({
        memory: createMaenifoldClient(locateCli(double.cliPath, process.env), { ...process.env, ...double.env, ...env }),
        outbox: createOutbox(join(stateDir, 'outbox')),
        chains,
        logger: createLogger(host.client),
        timeoutMs: 5_000,
        spillDir,
      }),
    // Thoughts that landed: a failing call leaves none.
    thoughts: async () => {
      const names = await readdir(join(double.root, 'memory', 'thinking'), { recursive: true }).catch(() => [] as string[]);
      let count = 0;
      for (const name of names.filter((file) => file.endsWith('.md'))) count += ((await readFile(join(double.root, 'memory', 'thinking', name), 'utf8')).match(/^## Thought /gm) ?? []).length;
      return count;
    },
  };
}

/** A state folder on a tmpfs filled up to its last byte. */
async function fullStateFolder(cleanup: Cleanup): Promise<{ stateDir: string; free(): Promise<void> }> {
  const mount = (await mountTmpfs(64)) as Mount;
  cleanup(() => mount.unmount());
  const stateDir = join(mount.dir, 'state');
  await mkdir(join(stateDir, 'outbox'), { recursive: true });
  await mkdir(join(stateDir, 'locks'), { recursive: true });
  const filler = join(mount.dir, 'filler');
  await writeFile(filler, Buffer.alloc(128 * 1024)).catch((error: NodeJS.ErrnoException) => expect(error.code).toBe('ENOSPC'));
  return { stateDir, free: () => rm(filler, { force: true }) };
}

const summary = { project: 'demo', response: 'A [[redis]] summary.', source: 'ses_a\u0000one' };
const pendingIn = async (dir: string): Promise<string[]> => (await readdir(dir).catch(() => [] as string[])).filter((name) => name.endsWith('.json'));

describe.concurrent('createDelivery on a disk that refuses', () => {
  it('should deliver a summary at once when the chain state answers ENOSPC, as the lock does', async ({ onTestFinished }) => {
    const r = await rig(onTestFinished);
    const stateDir = await newFolder(onTestFinished);
    const real = createChainStore(stateDir);
    const full = (): Promise<never> => Promise.reject(Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }));
    await r.delivery(stateDir, {}, { ...real, record: full, update: full }).submitThought(summary);
    expect(await r.thoughts()).toBe(1);
    expect(r.host.linesWith('the state folder refuses the chain state (ENOSPC)').length).toBeGreaterThan(0);
  });

  it('should not send again a summary whose sender was killed after its call on a chain kept in memory went out', async ({ onTestFinished }) => {
    const r = await rig(onTestFinished);
    const stateDir = await newFolder(onTestFinished);
    const outboxDir = join(stateDir, 'outbox');
    const full = (): Promise<never> => Promise.reject(Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }));
    const chains = { ...createChainStore(stateDir), record: full, update: full };
    const client = createMaenifoldClient(locateCli(r.double.cliPath, process.env), { ...process.env, ...r.double.env });
    let landed = (): void => undefined;
    const sent = new Promise<void>((resolve) => (landed = resolve));
    // Killed once its call went out: the thought lands, and its sender never learns it.
    const killed: MemoryPort = { ...client, appendThought: async (thought, options) => (await client.appendThought(thought, options), landed(), new Promise(() => undefined)) };
    const sender = (memory: MemoryPort): Delivery =>
      createDelivery({ memory, outbox: createOutbox(outboxDir), chains, logger: createLogger(r.host.client), timeoutMs: 5_000, settleMs: 0, spillDir: r.spillDir });
    void sender(killed).submitThought(summary);
    await sent;
    // Its claim now names a process that is gone, and the chain it kept in memory is gone with it.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    const claim = (await readdir(outboxDir)).find((name) => name.includes('.claim-')) as string;
    await rename(join(outboxDir, claim), join(outboxDir, claim.replace(/\.claim-\d+-/, `.claim-${dead}-`)));
    await sender(client).flush();
    expect(await r.thoughts()).toBe(1);
    expect(await readdir(outboxDir)).toEqual(['failed']);
  });

  it('should not number a thought again after learning that a killed sender\'s call landed on its chain kept in memory', async ({ onTestFinished }) => {
    const r = await rig(onTestFinished);
    const stateDir = await newFolder(onTestFinished);
    const outboxDir = join(stateDir, 'outbox');
    const full = (): Promise<never> => Promise.reject(Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }));
    const chains = { ...createChainStore(stateDir), record: full, update: full };
    const client = createMaenifoldClient(locateCli(r.double.cliPath, process.env), { ...process.env, ...r.double.env });
    let landed = (): void => undefined;
    const sent = new Promise<void>((resolve) => (landed = resolve));
    let calls = 0;
    // Its second call lands, and its sender never learns it.
    const killed: MemoryPort = { ...client, appendThought: async (thought, options) => { const result = await client.appendThought(thought, options); if ((calls += 1) === 1) return result; landed(); return new Promise(() => undefined); } };
    const sender = (memory: MemoryPort): Delivery =>
      createDelivery({ memory, outbox: createOutbox(outboxDir), chains, logger: createLogger(r.host.client), timeoutMs: 5_000, settleMs: 0, spillDir: r.spillDir });
    const first = sender(killed);
    await first.submitThought(summary);
    void first.submitThought({ ...summary, source: 'ses_a\u0000two' });
    await sent;
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    const claim = (await readdir(outboxDir)).find((name) => name.includes('.claim-')) as string;
    await rename(join(outboxDir, claim), join(outboxDir, claim.replace(/\.claim-\d+-/, `.claim-${dead}-`)));
    const next = sender(client);
    await next.flush();
    await next.submitThought({ ...summary, source: 'ses_a\u0000three' });
    expect(await r.thoughts()).toBe(3);
    const numbers: string[] = [];
    for (const name of (await readdir(join(r.double.root, 'memory', 'thinking'), { recursive: true })).filter((file) => file.endsWith('.md'))) {
      for (const [, number] of (await readFile(join(r.double.root, 'memory', 'thinking', name), 'utf8')).matchAll(/^## Thought (\d+)\//gm)) numbers.push(`${name} ${number}`);
    }
    expect(new Set(numbers).size).toBe(numbers.length);
  });

  it('should have another sender ask first about a call on a chain kept in memory that landed and answered garbage', async ({ onTestFinished }) => {
    const r = await rig(onTestFinished);
    const stateDir = await newFolder(onTestFinished);
    const outboxDir = join(stateDir, 'outbox');
    const full = (): Promise<never> => Promise.reject(Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }));
    const chains = { ...createChainStore(stateDir), record: full, update: full };
    let clock = Date.now();
    const sender = (env: Record<string, string>): Delivery =>
      createDelivery({
        memory: createMaenifoldClient(locateCli(r.double.cliPath, process.env), { ...process.env, ...r.double.env, ...env }),
        outbox: createOutbox(outboxDir, () => clock),
        chains,
        logger: createLogger(r.host.client),
        timeoutMs: 5_000,
        settleMs: 0,
        now: () => clock,
        spillDir: r.spillDir,
      });
    await sender({ MAENIFOLD_DOUBLE_FAULT: 'cutoff', MAENIFOLD_DOUBLE_FAULT_TOOLS: 'SequentialThinking' }).submitThought(summary);
    expect(await r.thoughts()).toBe(1);
    // Another process once the backoff is over: the first one's chain kept in memory is not its own.
    clock += 60_000;
    await sender({}).flush();
    expect(await r.thoughts()).toBe(1);
    expect(await readdir(outboxDir)).toEqual(['failed']);
  });

  it.runIf(mountable)('should deliver a summary at once when the state folder is full', async ({ onTestFinished }) => {
    const r = await rig(onTestFinished);
    const { stateDir } = await fullStateFolder(onTestFinished);
    await r.delivery(stateDir).submitThought(summary);
    expect(await r.thoughts()).toBe(1);
  });

  it.runIf(mountable)('should spill a summary held only in memory at shutdown while the disk is full, and deliver it once from the next start', async ({ onTestFinished }) => {
    const r = await rig(onTestFinished);
    const disk = await fullStateFolder(onTestFinished);
    // maenifold fails as well: the summary lives only in this process.
    const first = r.delivery(disk.stateDir, { MAENIFOLD_DOUBLE_FAULT: 'error:INTERNAL_ERROR' });
    await first.submitThought(summary);
    expect(await r.thoughts()).toBe(0);
    await first.close();
    expect(await pendingIn(r.spillDir)).toHaveLength(1);
    await disk.free();
    await r.delivery(disk.stateDir).flush();
    expect(await r.thoughts()).toBe(1);
    expect(await pendingIn(r.spillDir)).toEqual([]);
    expect(await pendingIn(join(disk.stateDir, 'outbox'))).toEqual([]);
  });

  it.runIf(mountable)('should write a summary held only in memory to the outbox at shutdown once the disk takes it again', async ({ onTestFinished }) => {
    const r = await rig(onTestFinished);
    const disk = await fullStateFolder(onTestFinished);
    const first = r.delivery(disk.stateDir, { MAENIFOLD_DOUBLE_FAULT: 'error:INTERNAL_ERROR' });
    await first.submitThought(summary);
    await disk.free();
    await first.close();
    expect(await pendingIn(join(disk.stateDir, 'outbox'))).toHaveLength(1);
    expect(await pendingIn(r.spillDir)).toEqual([]);
  });
});
