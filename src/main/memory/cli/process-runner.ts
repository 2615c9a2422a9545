/**
 * Runs a program with an argv array — never through a shell — with a
 * deadline, a cap on what it may print, and nothing left behind.
 *
 * The program leads its own process group (detached), and the whole group is
 * killed at the deadline and once the program has exited: a shell wrapper's
 * children die with it. The run ends on the program's exit, with a bounded
 * wait for the rest of its output, never on the pipes closing alone (a
 * grandchild may hold them open for ever). Under Bun (OpenCode's runtime)
 * `Bun.spawn` is used (a posix_spawn: nothing of the caller's heap is copied).
 * Under Node `node:child_process` forks, and a fork copies the page tables of
 * the whole process — milliseconds once the plugin holds a 10 MB session — so
 * the spawn runs on a thread of its own (spawn-thread.ts), never the caller's.
 */
import { Collector, killGroup, runState, type ProcessOutcome, type RunLimits } from './process-run-state.js';
import { holdSpawnThread, runOffThread } from './spawn-thread.js';
import { errorText } from '../../shared/logger.js';

export { KILL_GRACE_MS, OUTPUT_GRACE_MS, type ProcessOutcome, type RunLimits } from './process-run-state.js';

interface BunSubprocess {
  pid: number;
  stdout: ReadableStream<Uint8Array>;
  stderr: ReadableStream<Uint8Array>;
  exited: Promise<number>;
  signalCode: string | null;
  kill(signal?: string | number): void;
}
interface BunRuntime {
  spawn(options: {
    cmd: string[];
    stdin: 'ignore';
    stdout: 'pipe';
    stderr: 'pipe';
    env?: Record<string, string | undefined>;
    cwd?: string;
    detached?: boolean;
  }): BunSubprocess;
}

function bunRuntime(): BunRuntime | undefined {
  return (globalThis as { Bun?: BunRuntime }).Bun;
}

async function drain(stream: ReadableStream<Uint8Array>, collector: Collector, onOverflow: () => void, stopped: Promise<void>): Promise<void> {
  const reader = stream.getReader();
  // Once the run has ended, a pipe a grandchild still holds is let go.
  void stopped.then(() => reader.cancel().catch(() => undefined));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      if (!collector.push(value)) onOverflow();
    }
  } catch {
    // The pipe broke because the process was killed, or it was let go: what was read stays.
  }
}

function runWithBun(bun: BunRuntime, file: string, args: readonly string[], limits: RunLimits): Promise<ProcessOutcome> {
  let child: BunSubprocess;
  try {
    child = bun.spawn({ cmd: [file, ...args], stdin: 'ignore', stdout: 'pipe', stderr: 'pipe', env: limits.env, ...(limits.cwd ? { cwd: limits.cwd } : {}), detached: true });
  } catch (error) {
    return Promise.resolve({ kind: 'spawn-failed', message: (error as Error).message });
  }
  return new Promise((resolvePromise) => {
    let release!: () => void;
    const stopped = new Promise<void>((resolve) => (release = resolve));
    const state = runState(
      limits,
      () => killGroup(child.pid, () => child.kill('SIGKILL')),
      (outcome) => {
        release();
        resolvePromise(outcome);
      },
    );
    const outputDone = Promise.all([
      drain(child.stdout, state.stdout, () => state.stop('output-too-large'), stopped),
      drain(child.stderr, state.stderr, () => undefined, stopped),
    ]);
    child.exited.then(
      (code) => state.exited({ code: child.signalCode ? null : code, signal: child.signalCode }, outputDone),
      (error: unknown) => state.failed(errorText(error)),
    );
  });
}

/**
 * @param file - the program's path.
 * @param args - its arguments, one element each (no shell parsing).
 * @param limits - deadline, output cap, environment, abort signal.
 */
export function runProcess(file: string, args: readonly string[], limits: RunLimits): Promise<ProcessOutcome> {
  if (limits.signal?.aborted) return Promise.resolve({ kind: 'timeout', stdout: '', stderr: '' });
  const bun = bunRuntime();
  return bun ? runWithBun(bun, file, args, limits) : runOffThread(file, args, limits);
}

/**
 * Holds the runner ready from now until the release: under Node the spawn thread (spawn-thread.ts), so a
 * hook's first write does not pay for its start; under Bun, nothing is needed.
 *
 * @returns the release, awaited at the holder's dispose.
 */
export function holdProcessRunner(): () => Promise<void> {
  return bunRuntime() ? async () => undefined : holdSpawnThread();
}
