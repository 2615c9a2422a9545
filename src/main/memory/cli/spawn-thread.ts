/**
 * Starting programs under Node from a thread of their own. `node:child_process`
 * forks, and a fork copies the page tables of the whole process while the
 * calling thread waits: milliseconds on the hook thread once the plugin holds
 * a 10 MB session. One long-lived worker thread (spawn-worker.ts) does every
 * spawn instead, with the same deadline, output cap and group kill
 * (`runWithNode` in node-spawn.ts); the caller only posts the run and reads its outcome.
 *
 * The thread lives while a plugin instance holds it (`holdSpawnThread`, from
 * the instance's start to its dispose) and keeps the process alive only while
 * a run is under way; without a holder, a run is started on the caller's thread. A thread that cannot start leaves the runs to the
 * caller's thread, as before; one that stops while programs run answers them
 * as failed starts (a write is retried by the outbox), and the next run starts
 * a new thread. The caller keeps a deadline of its own past the thread's, so
 * a thread that never answers does not hold it.
 */
import { Worker } from 'node:worker_threads';
import { runWithNode } from './node-spawn.js';
import { KILL_GRACE_MS, OUTPUT_GRACE_MS, type ProcessOutcome, type RunLimits } from './process-run-state.js';

/** A run's limits as they cross to the thread: everything but the abort signal, which crosses as a message. */
type CrossingLimits = Omit<RunLimits, 'signal'>;

/** What the caller posts to the thread. @internal */
export type SpawnRequest = { type: 'run'; id: number; file: string; args: readonly string[]; limits: CrossingLimits } | { type: 'abort'; id: number };

/** What the thread posts back. @internal */
export type SpawnReply = { type: 'ready' } | { type: 'outcome'; id: number; outcome: ProcessOutcome };

/** How long past a run's own deadline and graces the caller waits for the thread's answer. */
export const THREAD_ANSWER_GRACE_MS = 2_000;

/** Runs programs from the spawn thread. */
export interface SpawnThread {
  /** Runs `file` as `runWithNode` would, from the thread (or the caller's thread when none can start). */
  run(file: string, args: readonly string[], limits: RunLimits): Promise<ProcessOutcome>;
  /**
   * Starts the thread now, before any run, so its start (tens of milliseconds of the caller's thread the
   * first time) happens when the plugin starts rather than inside a hook. Does nothing once it runs.
   */
  start(): void;
  /** Whether a thread is running. */
  readonly running: boolean;
  /** Runs the thread answered: those that were started from it. */
  readonly answered: number;
  /** Runs left to the caller's thread because none could start. */
  readonly inline: number;
  /** Stops the thread once the runs under way have ended. */
  close(): Promise<void>;
}

interface Pending {
  file: string;
  args: readonly string[];
  limits: RunLimits;
  resolve: (outcome: ProcessOutcome) => void;
}

/** The worker's module: `.ts` in the sources (compiled through tsx by the pool's bootstrap under Node), `.js` when built. */
function defaultEntry(): { filename: URL; workerData?: unknown } {
  const typescript = import.meta.url.endsWith('.ts');
  const file = new URL(`./spawn-worker${typescript ? '.ts' : '.js'}`, import.meta.url);
  if (!typescript) return { filename: file };
  return { filename: new URL('../../../workers/ts-worker-bootstrap.mjs', import.meta.url), workerData: { tsWorkerFile: file.href } };
}

/**
 * @param entry - the thread's module and its data; the spawn worker beside this module by default.
 */
export function createSpawnThread(entry: { filename: URL; workerData?: unknown } = defaultEntry()): SpawnThread {
  let worker: Worker | null = null;
  let ready = false;
  /** Set once a thread failed before it was ready: it never will be, and runs go inline. */
  let unavailable = false;
  let nextId = 1;
  let answered = 0;
  let inline = 0;
  const pending = new Map<number, Pending>();
  /** The outcomes still awaited, for `close`. */
  const underWay = new Set<Promise<ProcessOutcome>>();

  const runInline = (file: string, args: readonly string[], limits: RunLimits): Promise<ProcessOutcome> => {
    inline += 1;
    return runWithNode(file, args, limits);
  };

  const settle = (id: number, outcome: ProcessOutcome): void => {
    const run = pending.get(id);
    if (!run) return;
    pending.delete(id);
    if (pending.size === 0) worker?.unref();
    run.resolve(outcome);
  };

  const lost = (thread: Worker, why: string): void => {
    if (worker !== thread) return;
    worker = null;
    const wasReady = ready;
    ready = false;
    const runs = [...pending.entries()];
    pending.clear();
    if (!wasReady) {
      // Nothing was started from a thread that never came up: the runs go on the caller's thread.
      unavailable = true;
      for (const [, run] of runs) void runInline(run.file, run.args, run.limits).then(run.resolve);
      return;
    }
    for (const [, run] of runs) run.resolve({ kind: 'spawn-failed', message: `the spawn thread stopped (${why})` });
  };

  const thread = (): Worker => {
    if (worker) return worker;
    const started = new Worker(entry.filename, { workerData: entry.workerData });
    // Idle, it does not keep the process alive; a run refs it while it is under way.
    started.unref();
    worker = started;
    started.on('message', (reply: SpawnReply) => {
      if (reply.type === 'ready') ready = true;
      else {
        answered += 1;
        settle(reply.id, reply.outcome);
      }
    });
    started.on('error', (error: Error) => lost(started, error.message));
    started.on('exit', (code) => lost(started, `exit ${code}`));
    return started;
  };

  return {
    start() {
      if (unavailable || worker) return;
      try {
        thread();
      } catch {
        unavailable = true;
      }
    },
    get running() {
      return worker !== null;
    },
    run(file, args, limits) {
      if (limits.signal?.aborted) return Promise.resolve({ kind: 'timeout', stdout: '', stderr: '' });
      if (unavailable) return runInline(file, args, limits);
      let target: Worker;
      try {
        target = thread();
      } catch {
        unavailable = true;
        return runInline(file, args, limits);
      }
      const id = nextId++;
      const { signal, ...crossing } = limits;
      const outcome = new Promise<ProcessOutcome>((resolve) => {
        // The deadline holds even if the thread never answers: past the thread's own deadline and graces, the caller moves on.
        const backstop = setTimeout(() => {
          target.postMessage({ type: 'abort', id } satisfies SpawnRequest);
          settle(id, { kind: 'timeout', stdout: '', stderr: '' });
        }, limits.timeoutMs + KILL_GRACE_MS + OUTPUT_GRACE_MS + THREAD_ANSWER_GRACE_MS);
        backstop.unref();
        const onAbort = (): void => target.postMessage({ type: 'abort', id } satisfies SpawnRequest);
        signal?.addEventListener('abort', onAbort, { once: true });
        pending.set(id, {
          file,
          args,
          limits,
          resolve: (outcome) => {
            clearTimeout(backstop);
            signal?.removeEventListener('abort', onAbort);
            resolve(outcome);
          },
        });
        target.ref();
        // The environment is sent whole: the thread's copy of this process's is the one of its start.
        target.postMessage({ type: 'run', id, file, args: [...args], limits: { ...crossing, env: crossing.env ?? process.env } } satisfies SpawnRequest);
      });
      underWay.add(outcome);
      void outcome.then(() => underWay.delete(outcome));
      return outcome;
    },
    get answered() {
      return answered;
    },
    get inline() {
      return inline;
    },
    async close() {
      await Promise.all([...underWay]);
      const current = worker;
      worker = null;
      ready = false;
      if (current) await current.terminate();
    },
  };
}

let shared: SpawnThread | null = null;
let holders = 0;

/**
 * Holds the process's one spawn thread, starting it now: the thread lives while someone holds it (each
 * plugin instance that found the CLI, from its start to its dispose), so its start is not paid inside a
 * hook and nothing of it is left once the last instance is gone.
 *
 * @returns the release; the last one stops the thread once its runs have ended.
 */
export function holdSpawnThread(): () => Promise<void> {
  holders += 1;
  shared ??= createSpawnThread();
  shared.start();
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    holders -= 1;
    if (holders > 0 || !shared) return;
    const stopping = shared;
    shared = null;
    await stopping.close();
  };
}

/** The process's spawn thread while it is held, or `null`. */
export function sharedSpawnThread(): SpawnThread | null {
  return holders > 0 ? shared : null;
}

/**
 * Runs a program from the shared spawn thread while one is held; see the module's comment. Without one
 * (a script, not a plugin) it runs on the caller's thread: nothing would stop a thread started here.
 *
 * @param file - the program's path.
 * @param args - its arguments, one element each (no shell parsing).
 * @param limits - deadline, output cap, environment, working folder, abort signal.
 */
export function runOffThread(file: string, args: readonly string[], limits: RunLimits): Promise<ProcessOutcome> {
  const thread = sharedSpawnThread();
  return thread ? thread.run(file, args, limits) : runWithNode(file, args, limits);
}
