/**
 * The worker pool: one per plugin instance (one per process under 2.x,
 * host/v2/shared-pools.ts). Its workers start once the host has got through
 * its own start (OpenCode is busy starting until the first session went idle,
 * and workers loading then made the user's first prompt wait for the cores),
 * or at the first real task, whichever comes first: what the plugin would
 * run while OpenCode starts waits for the host's start where it is asked
 * for (session start's build, the outbox's delivery). The warm-up runs
 * while no real task wants the pool.
 */
import { performance } from 'node:perf_hooks';
import { Piscina } from 'piscina';
import type { PriorityOutcome, TaskName, TaskRequest, TaskResult, WarmUpOutput } from '../../workers/protocol.js';
import { toTaskError } from '../../core/task-error.js';
import { resolvePoolOptions, type ResolvedPoolOptions } from '../options/pool-options.js';
import type { OptionIssue } from '../options/option-issues.js';
import type { RunControls, TaskRunner, TaskSignatures } from './task-runner.js';

/** What the pool knows once its workers are warm. */
export interface PoolReady {
  /** The priority the workers run at, as the first warm-up reported it; `null` without a warm-up. */
  priority: PriorityOutcome | null;
}

/** A running pool. */
export interface WorkerPool extends TaskRunner {
  /** Settles when every worker has run its warm-up task, or when the workers failed it {@link MAX_WARM_UP_TRIES} times. */
  readonly ready: Promise<TaskResult<PoolReady>>;
  readonly options: ResolvedPoolOptions;
  /** Option values that were rejected and replaced by defaults. */
  readonly issues: readonly OptionIssue[];
  /** Tasks waiting for a worker, workers alive, and tasks finished. */
  stats(): { queued: number; threads: number; completed: number };
  /** Stops every worker; later tasks fail with POOL_DESTROYED. Safe to call twice. */
  destroy(): Promise<void>;
}

/** Whether this runs in Bun (OpenCode's runtime) rather than Node. */
const ON_BUN = typeof (globalThis as { Bun?: unknown }).Bun !== 'undefined';

/** Where the worker lives: next to this module's tree, as `.ts` in the sources and `.js` in the package. */
export function resolveWorkerFile(moduleUrl: string = import.meta.url): string {
  const extension = moduleUrl.endsWith('.ts') ? '.ts' : '.js';
  return new URL(`../../workers/extract-worker${extension}`, moduleUrl).href;
}

/**
 * Node cannot start a `.ts` worker by itself (Bun can, and the package ships
 * `.js`): from the sources under Node, a bootstrap compiles it through tsx.
 */
function workerEntry(workerFile: string, niceness: number): { filename: string; workerData: { niceness: number; tsWorkerFile?: string } } {
  if (ON_BUN || !workerFile.endsWith('.ts')) return { filename: workerFile, workerData: { niceness } };
  const bootstrap = new URL('../../workers/ts-worker-bootstrap.mjs', import.meta.url).href;
  return { filename: bootstrap, workerData: { niceness, tsWorkerFile: workerFile } };
}

/**
 * How much warm-up the workers get: waves of one task per worker, each task that many passes over the
 * warm-up conversation. Neither engine is done optimizing after a few passes: under Node a 5-pass task
 * took about 100 ms on its second wave and 25-35 ms from its fifth to its twentieth, and a fresh plugin's
 * compactions were faster after 100 passes than after 6 (docs/benchmarks.md). JavaScriptCore (Bun,
 * OpenCode's runtime) waits for more calls still before its optimizing tiers, and compiles on threads
 * the whole process shares at the host's priority: a short warm-up leaves that compiling to the first
 * real compactions. So both get 100 passes, paid once at the pool's start by workers below the host's
 * priority. The passes come a few to a wave, so a real task that arrives during the warm-up waits for a
 * few passes at most.
 */
export const WARM_UP_PLAN: Readonly<{ waves: number; rounds: number }> = { waves: 20, rounds: 5 };

/**
 * How long the pool must have had no real task before the warm-up sends a wave. Session start's build
 * hands over its tasks a few milliseconds apart, between its reads of the store: a wave sent into such
 * a gap would hold a worker the build is about to ask for.
 */
export const WARM_UP_IDLE_MS = 250;

/**
 * Warm-ups the pool tries before it takes its workers as unable to run: a worker that dies once while
 * the pool starts is started again, while a worker file that cannot load fails every try, each
 * within a fraction of a second.
 */
export const MAX_WARM_UP_TRIES = 3;

/** When a pool's workers start, and its warm-up begins. */
export interface WarmUpStart {
  /**
   * Settles when the host has got through its own start (plugin/host-start.ts). Loading a worker costs about
   * a second of CPU under Bun and the warm-up keeps both cores busy for seconds; JavaScriptCore compiles what
   * they run on threads at the host's priority: run while OpenCode itself starts, they made the first prompt
   * of a new server wait. The workers start then, or at the first real task. @default the pool's creation
   */
  after?: Promise<unknown>;
  /** The workers start and the warm-up begins this long after the pool's creation at the latest, whatever `after` does. @default 15000 */
  latestMs?: number;
}

/** The default of {@link WarmUpStart.latestMs}. */
export const WARM_UP_LATEST_MS = 15_000;

function classifyRejection(error: unknown, signal: AbortSignal | undefined, destroyed: boolean): TaskResult<never> {
  const message = error instanceof Error ? error.message : String(error);
  if (destroyed) return { ok: false, error: { code: 'POOL_DESTROYED', message: 'the worker pool was stopped' } };
  if (signal?.aborted || (error instanceof Error && error.name === 'AbortError')) {
    return { ok: false, error: { code: 'TIMEOUT', message: `task aborted: ${message}` } };
  }
  return { ok: false, error: toTaskError(error, 'WORKER_CRASHED') };
}

/**
 * Starts the pool.
 *
 * @param rawOptions - pool options as given; invalid values fall back to defaults and are listed in `issues`.
 * @param workerFile - the worker module URL; tests point it at fault-injecting workers.
 * @param warmUpStart - when the warm-up may begin.
 */
export function createWorkerPool(rawOptions?: unknown, workerFile: string = resolveWorkerFile(), warmUpStart: WarmUpStart = {}): WorkerPool {
  const { options, issues } = resolvePoolOptions(rawOptions);
  let destroyed = false;
  let inFlight = 0;
  /** Real tasks (not the warm-up's) in flight, and when the last of them settled. */
  let realInFlight = 0;
  let realSettledAt = Number.NEGATIVE_INFINITY;
  let piscina: Piscina | null = null;
  let startError: TaskResult<never> | null = null;

  function start(): void {
    try {
      piscina = new Piscina({
        ...workerEntry(workerFile, options.niceness),
        minThreads: options.threads,
        maxThreads: options.threads,
        idleTimeout: Number.MAX_SAFE_INTEGER,
        // Its run and wait histograms, recorded on the host's thread at every task, are never read.
        recordTiming: false,
        // Under Bun, terminate() cannot interrupt Atomics.wait and destroy() hangs forever.
        atomics: 'disabled',
        // Enforced by Node; Bun 1.3 ignores it, so task inputs are bounded too (session/message-bounds.ts).
        resourceLimits: { maxOldGenerationSizeMb: options.workerHeapMb },
      });
      // A worker that dies is replaced by piscina; its error reaches the task that was running.
      piscina.on('error', () => undefined);
    } catch (error) {
      piscina = null;
      startError = { ok: false, error: toTaskError(error, 'POOL_UNAVAILABLE') };
    }
  }

  /** Stops the current workers, if any, and leaves the pool without them. */
  async function stopWorkers(): Promise<void> {
    const stopping = piscina;
    piscina = null;
    await stopping?.destroy().catch(() => undefined);
  }
  let stopWaiting: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => (stopWaiting = resolve));
  const hostStart = warmUpStart.after;
  /** Resolves when {@link WarmUpStart} lets the workers start and the warm-up begin, or the pool was stopped. */
  const allowed: Promise<void> = hostStart
    ? (async () => {
        let timer: NodeJS.Timeout | undefined;
        const latest = new Promise<void>((resolve) => {
          timer = setTimeout(resolve, warmUpStart.latestMs ?? WARM_UP_LATEST_MS);
          // A pool nobody uses keeps no process alive.
          timer.unref();
        });
        await Promise.race([hostStart.then(() => undefined, () => undefined), latest, stopped]);
        clearTimeout(timer);
      })()
    : Promise.resolve();
  let wakeUp: () => void = () => undefined;
  const woken = new Promise<void>((resolve) => (wakeUp = resolve));
  let workersStarted = false;
  if (!hostStart) {
    workersStarted = true;
    start();
  }
  /** Settles once the workers were started (or the pool was stopped first). */
  const workersStart: Promise<void> = workersStarted
    ? Promise.resolve()
    : Promise.race([allowed, woken]).then(() => {
        workersStarted = true;
        if (!destroyed) start();
      });

  async function run<N extends TaskName>(
    name: N,
    input: TaskSignatures[N]['input'],
    controls: RunControls = {},
  ): Promise<TaskResult<TaskSignatures[N]['output']>> {
    if (name === 'warmUp') return submit(name, input, controls);
    // A real task wants the workers now.
    wakeUp();
    realInFlight++;
    try {
      return await submit(name, input, controls);
    } finally {
      realInFlight--;
      realSettledAt = performance.now();
    }
  }

  async function submit<N extends TaskName>(name: N, input: TaskSignatures[N]['input'], controls: RunControls): Promise<TaskResult<TaskSignatures[N]['output']>> {
    if (destroyed) return { ok: false, error: { code: 'POOL_DESTROYED', message: 'the worker pool was stopped' } };
    if (workersStarted && !piscina) return startError ?? { ok: false, error: { code: 'POOL_UNAVAILABLE', message: 'no pool' } };
    // piscina's own maxQueue is not a hard bound (its balancer hands busy workers more tasks), so the bound is kept here.
    if (inFlight >= options.threads + options.maxQueue) {
      return { ok: false, error: { code: 'QUEUE_FULL', message: `${inFlight} tasks in flight; the queue holds ${options.maxQueue}` } };
    }
    inFlight++;
    try {
      if (!workersStarted) await workersStart;
      if (destroyed) return { ok: false, error: { code: 'POOL_DESTROYED', message: 'the worker pool was stopped' } };
      if (!piscina) return startError ?? { ok: false, error: { code: 'POOL_UNAVAILABLE', message: 'no pool' } };
      return await runOn(piscina, { name, input }, controls.signal);
    } finally {
      inFlight--;
    }
  }

  /** One task on the started workers, within the task's deadline. */
  async function runOn<N extends TaskName>(workers: Piscina, request: TaskRequest<N>, callerSignal: AbortSignal | undefined): Promise<TaskResult<TaskSignatures[N]['output']>> {
    const signal = callerSignal ? AbortSignal.any([callerSignal, AbortSignal.timeout(options.taskTimeoutMs)]) : AbortSignal.timeout(options.taskTimeoutMs);
    try {
      return (await workers.run(request, { signal })) as TaskResult<TaskSignatures[N]['output']>;
    } catch (error) {
      return classifyRejection(error, signal, destroyed);
    }
  }

  /** Resolves once no real task has been in flight for {@link WARM_UP_IDLE_MS}, or the pool was stopped. */
  async function idle(): Promise<void> {
    for (;;) {
      if (destroyed) return;
      const quietFor = performance.now() - realSettledAt;
      if (realInFlight === 0 && quietFor >= WARM_UP_IDLE_MS) return;
      await new Promise((resolve) => setTimeout(resolve, realInFlight > 0 ? WARM_UP_IDLE_MS : WARM_UP_IDLE_MS - quietFor));
    }
  }

  /** One wave: a warm-up task of `rounds` passes per worker. */
  const wave = (rounds: number): Promise<TaskResult<WarmUpOutput>[]> => Promise.all(Array.from({ length: options.threads }, () => run('warmUp', { rounds })));

  /**
   * One warm-up: a wave without passes, sent at once, which only tells that each worker loads (a worker
   * whose module fails to load is known within a fraction of a second, while piscina still reports it),
   * then, once {@link WarmUpStart} allows, the waves of passes. The last wave's results, or the first
   * wave that failed.
   */
  async function warmWaves(): Promise<TaskResult<WarmUpOutput>[]> {
    let results = await wave(0);
    if (results.some((result) => !result.ok)) return results;
    await allowed;
    // In short waves of one task per worker (an idle pool gives each worker one), each sent only while
    // no real task wants the pool: a real task waits for one short wave's task at most, never for a
    // whole warm-up, and the work that came first is not queued behind it.
    for (let current = 0; current < WARM_UP_PLAN.waves; current++) {
      await idle();
      if (destroyed) break;
      results = await wave(WARM_UP_PLAN.rounds);
      if (results.some((result) => !result.ok)) break;
    }
    return results;
  }

  async function warmAll(): Promise<TaskResult<PoolReady>> {
    await workersStart;
    if (destroyed) return { ok: false, error: { code: 'POOL_DESTROYED', message: 'the worker pool was stopped' } };
    if (!piscina) return startError ?? { ok: false, error: { code: 'POOL_UNAVAILABLE', message: 'no pool' } };
    if (!options.warmUp) return { ok: true, value: { priority: null } };
    let failed: Extract<TaskResult<never>, { ok: false }> | undefined;
    for (let attempt = 1; attempt <= MAX_WARM_UP_TRIES; attempt++) {
      const results = await warmWaves();
      const failure = results.find((result): result is Extract<TaskResult<never>, { ok: false }> => !result.ok);
      if (!failure) return { ok: true, value: { priority: results[0]?.ok ? results[0].value.priority : null } };
      // A warm-up cut off by its deadline says the machine is busy (the workers run below the host's
      // priority), not that they cannot work: the pool stays, only colder. Keeping the pool from every
      // later compaction because the machine was loaded at start would lose their context.
      if (failure.error.code === 'TIMEOUT') return { ok: true, value: { priority: null } };
      failed = failure;
      if (destroyed) return failure;
      // A worker that died once (a signal, a transient failure while it started) may run the next time.
      // The workers are started again rather than left to piscina's replacement: a worker whose module
      // failed to load leaves piscina with a thread that never answers, where a fresh start fails at once.
      if (attempt < MAX_WARM_UP_TRIES) {
        await stopWorkers();
        if (destroyed) return failure;
        start();
        if (!piscina) break;
      }
    }
    // Workers that failed a tiny task on every try will not run a real one: stop and let callers fall back.
    const unavailable: TaskResult<never> = {
      ok: false,
      error: { code: 'POOL_UNAVAILABLE', message: `workers could not start: ${failed?.error.message ?? (startError && !startError.ok ? startError.error.message : 'no pool')}` },
    };
    startError = unavailable;
    await stopWorkers();
    return unavailable;
  }

  const ready = warmAll();
  return {
    ready,
    options,
    issues,
    run,
    stats: () => ({
      queued: Math.max(0, inFlight - options.threads),
      threads: piscina?.threads.length ?? 0,
      completed: piscina?.completed ?? 0,
    }),
    async destroy() {
      if (destroyed) return;
      destroyed = true;
      // What waits for the host's start (a warm-up) or for the workers (a task) learns the pool was stopped.
      stopWaiting();
      wakeUp();
      try {
        await piscina?.destroy();
      } catch {
        // Workers that are already gone leave nothing to stop.
      }
    },
  };
}
