import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getPriority } from 'node:os';
import { BroadcastChannel } from 'node:worker_threads';
import { afterAll, afterEach, describe, expect, inject, it, vi } from 'vitest';
import { createWorkerPool, resolveWorkerFile, WARM_UP_PLAN, type WorkerPool } from '../../../src/main/pool/worker-pool.js';
import type { AnalyzeInput } from '../../../src/workers/protocol.js';
import { scratchFolders } from '../../support/scratch.js';

const faultyWorker = new URL('../../fixtures/workers/faulty-worker.mjs', import.meta.url).href;
/** Where the fixture worker says that a task told to hang runs (its `HANG_CHANNEL`). */
const hangChannel = new BroadcastChannel('faulty-worker:hang');
afterAll(() => hangChannel.close());

function command(text: string): AnalyzeInput {
  return {
    units: [{ key: null, order: 0, role: 'user', text, tools: [], summary: false }],
    settings: { projectRoot: null, maxSectionChars: 1000, maxDecisionsPerUnit: 5 },
  };
}

const scratch = scratchFolders('worker-pool');

const pools: WorkerPool[] = [];
function startPool(options: Record<string, unknown>, file?: string): WorkerPool {
  const pool = createWorkerPool(options, file);
  pools.push(pool);
  return pool;
}

afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.destroy()));
  vi.unstubAllEnvs();
});

describe('resolveWorkerFile', () => {
  it('should pick the worker with the same extension as the calling module', () => {
    expect(resolveWorkerFile('file:///pkg/dist/src/main/pool/worker-pool.js')).toBe('file:///pkg/dist/src/workers/extract-worker.js');
    expect(resolveWorkerFile('file:///repo/src/main/pool/worker-pool.ts')).toBe('file:///repo/src/workers/extract-worker.ts');
  });
});

describe('WARM_UP_PLAN', () => {
  it('should warm workers for many passes, in waves of one short task per worker', () => {
    // Both engines kept getting faster well past six passes (docs/benchmarks.md).
    expect(WARM_UP_PLAN.waves * WARM_UP_PLAN.rounds).toBeGreaterThanOrEqual(50);
    // A real task waits for one wave's task at most: a wave stays a few passes long.
    expect(WARM_UP_PLAN.rounds).toBeLessThanOrEqual(10);
  });
});

describe('createWorkerPool', () => {
  // One worker: starting one through tsx costs about two seconds of CPU. A pool of several workers warms
  // each before it is ready: the priority test below starts two, from the run's bundle.
  it('should warm its worker, started from the sources, and run a real extraction task', async () => {
    const pool = startPool({ threads: 1 });
    expect(await pool.ready).toMatchObject({ ok: true, value: { priority: { kind: process.platform === 'linux' ? 'lowered' : 'unchanged' } } });
    const result = await pool.run('analyzeUnits', command('## Plan\nWe decided to use [[SQLite]] for storage.'));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const [analysis] = result.value.analyses;
    expect(analysis?.h2Count).toBe(1);
    expect(analysis?.decisions.map((decision) => decision.text)).toContain('use [[SQLite]] for storage');
  });

  // The worker as the sources run it (compiled through tsx) starts in the test above; the priority tests
  // start the same sources from the run's bundle, a second of CPU less per worker.
  it.runIf(process.platform === 'linux')("should run its workers below the host's priority and leave the host's thread as it was", async () => {
    /** Nice values of this process's threads, by thread id (field 19 of each task's stat). */
    const niceByThread = (): Map<number, number> =>
      new Map(
        readdirSync('/proc/self/task').map((tid) => {
          const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
          return [Number(tid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])];
        }),
      );
    const host = getPriority(process.pid);
    const before = niceByThread();
    const pool = startPool({ threads: 2, niceness: 7 }, inject('workerBundle'));
    const expected = Math.min(19, host + 7);
    expect(await pool.ready).toEqual({ ok: true, value: { priority: { kind: 'lowered', nice: expected } } });
    const started = [...niceByThread()].filter(([tid]) => !before.has(tid));
    expect(started.filter(([, nice]) => nice === expected).length).toBeGreaterThanOrEqual(2);
    expect(getPriority(process.pid)).toBe(host);
    expect(niceByThread().get(process.pid)).toBe(host);
  });

  it('should leave the workers at the host\'s priority with niceness 0', async () => {
    const pool = startPool({ threads: 1, niceness: 0 }, inject('workerBundle'));
    expect(await pool.ready).toEqual({ ok: true, value: { priority: { kind: 'unchanged', reason: 'niceness 0' } } });
  });

  it('should report a worker crash as WORKER_CRASHED and replace the worker', async () => {
    const pool = startPool({ threads: 1 }, faultyWorker);
    await pool.ready;
    const crashed = await pool.run('analyzeUnits', command('crash'));
    expect(crashed).toMatchObject({ ok: false, error: { code: 'WORKER_CRASHED' } });
    const after = await pool.run('analyzeUnits', command('echo'));
    expect(after).toEqual({ ok: true, value: { analyses: [], timings: { echo: 4 } } });
  });

  it('should abort a task past its deadline with TIMEOUT and keep serving', async () => {
    // The deadline also bounds the warm-up, so it must cover a worker's start on a loaded machine: the
    // plain JavaScript fixture starts in about 0.1 s, so a second is ample and short to wait for.
    const pool = startPool({ threads: 1, taskTimeoutMs: 1_000 }, faultyWorker);
    await pool.ready;
    // Blocked, not spinning, for the whole second: a spinning task is stopped by the caller's signal below.
    const hung = await pool.run('analyzeUnits', command('block'));
    expect(hung).toMatchObject({ ok: false, error: { code: 'TIMEOUT' } });
    expect(await pool.run('analyzeUnits', command('ok'))).toMatchObject({ ok: true });
  });

  it('should abort a task when the caller signal fires', async () => {
    const pool = startPool({ threads: 1 }, faultyWorker);
    await pool.ready;
    const controller = new AbortController();
    const pending = pool.run('analyzeUnits', command('hang'), { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    expect(await pending).toMatchObject({ ok: false, error: { code: 'TIMEOUT' } });
  });

  it('should contain a worker that exhausts its heap limit', async () => {
    const pool = startPool({ threads: 1, workerHeapMb: 64 }, faultyWorker);
    await pool.ready;
    const result = await pool.run('analyzeUnits', command('oom'));
    expect(result).toMatchObject({ ok: false, error: { code: 'WORKER_CRASHED' } });
    expect(await pool.run('analyzeUnits', command('ok'))).toMatchObject({ ok: true });
  });

  it('should fail fast with QUEUE_FULL when the bounded queue is full', async () => {
    const pool = startPool({ threads: 1, maxQueue: 1 }, faultyWorker);
    await pool.ready;
    const results = await Promise.all([1, 2, 3, 4].map(() => pool.run('analyzeUnits', command('slow'))));
    const codes = results.map((result) => (result.ok ? 'ok' : result.error.code));
    expect(codes).toContain('QUEUE_FULL');
    expect(codes).toContain('ok');
  });

  it('should keep the pool when its warm-up runs out of time: a busy machine, not a broken worker', async () => {
    // The deadline also bounds the real task, which waits for the worker that replaces the one cut off: a
    // loaded two-core machine can take over half a second to start it.
    const pool = startPool({ threads: 1, taskTimeoutMs: 2_000 }, new URL('../../fixtures/workers/slow-warm-up-worker.mjs', import.meta.url).href);
    expect(await pool.ready).toMatchObject({ ok: true });
    expect(await pool.run('analyzeUnits', command('echo'))).toMatchObject({ ok: true });
  });

  it('should replace a worker that dies during its warm-up, warm again and run later tasks in the pool', async () => {
    const marker = join(await scratch(), 'crashed');
    vi.stubEnv('CRASH_ONCE_MARKER', marker);
    const pool = startPool({ threads: 1 }, new URL('../../fixtures/workers/crash-once-worker.mjs', import.meta.url).href);
    expect(await pool.ready).toMatchObject({ ok: true });
    // The first warm-up did die: the pool is ready because it warmed a replacement.
    expect(existsSync(marker)).toBe(true);
    for (let task = 0; task < 3; task++) expect(await pool.run('analyzeUnits', command('echo'))).toEqual({ ok: true, value: { analyses: [], timings: { echo: 1 } } });
    expect(pool.stats().threads).toBe(1);
  });

  it('should report POOL_UNAVAILABLE when the worker file cannot load', async () => {
    const pool = startPool({ threads: 1 }, new URL('../../fixtures/workers/missing-worker.js', import.meta.url).href);
    expect(await pool.ready).toMatchObject({ ok: false, error: { code: 'POOL_UNAVAILABLE' } });
    expect(await pool.run('analyzeUnits', command('echo'))).toMatchObject({ ok: false, error: { code: 'POOL_UNAVAILABLE' } });
  });

  it('should stop promptly, fail pending work as POOL_DESTROYED and tolerate a second destroy', async () => {
    const pool = startPool({ threads: 1 }, faultyWorker);
    await pool.ready;
    // Destroyed while the worker runs the task, not while it waits in the queue.
    const running = new Promise((resolve) => hangChannel.addEventListener('message', resolve, { once: true }));
    const pending = pool.run('analyzeUnits', command('hang'));
    await running;
    await pool.destroy();
    await pool.destroy();
    expect(await pending).toMatchObject({ ok: false, error: { code: 'POOL_DESTROYED' } });
    expect(await pool.run('analyzeUnits', command('echo'))).toMatchObject({ ok: false, error: { code: 'POOL_DESTROYED' } });
  });

  it("should start no worker before the host's start, its warm-up held, and start one at once for a real task", async () => {
    const pool = createWorkerPool({ threads: 1 }, faultyWorker, { after: new Promise(() => undefined), latestMs: 60_000 });
    pools.push(pool);
    let warmed = false;
    void pool.ready.then(() => (warmed = true));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(pool.stats().threads).toBe(0);
    expect(await pool.run('analyzeUnits', command('echo'))).toEqual({ ok: true, value: { analyses: [], timings: { echo: 4 } } });
    expect(pool.stats().threads).toBe(1);
    // The warm-up's passes still wait for the host.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(warmed).toBe(false);
  });

  it("should start its workers and warm them at the host's start, or at the latest time without it", async () => {
    let hostStarted: () => void = () => undefined;
    const started = createWorkerPool({ threads: 1 }, faultyWorker, { after: new Promise<void>((resolve) => (hostStarted = resolve)), latestMs: 60_000 });
    const late = createWorkerPool({ threads: 1 }, faultyWorker, { after: new Promise(() => undefined), latestMs: 100 });
    pools.push(started, late);
    hostStarted();
    expect(await started.ready).toMatchObject({ ok: true });
    expect(await late.ready).toMatchObject({ ok: true });
  });

  it('should fail a task held for the workers as POOL_DESTROYED when the pool stops before they start', async () => {
    const pool = createWorkerPool({ threads: 1 }, faultyWorker, { after: new Promise(() => undefined), latestMs: 60_000 });
    const task = pool.run('analyzeUnits', command('echo'));
    await pool.destroy();
    expect(await task).toMatchObject({ ok: false, error: { code: 'POOL_DESTROYED' } });
    expect(await pool.ready).toMatchObject({ ok: false, error: { code: 'POOL_DESTROYED' } });
    expect(pool.stats().threads).toBe(0);
  });

  it('should replace invalid options with defaults and name each one', () => {
    // The fixture worker: which worker runs does not matter here, and the real one costs a second of CPU to start.
    const pool = startPool({ threads: 0, maxQueue: 'many', warmUp: 'yes' }, faultyWorker);
    expect(pool.issues.map((issue) => issue.key).sort()).toEqual(['pool.maxQueue', 'pool.threads', 'pool.warmUp']);
    expect(pool.options.threads).toBeGreaterThanOrEqual(1);
  });
});
