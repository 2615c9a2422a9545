/**
 * Runs a program with an argv array — never through a shell — with a
 * deadline, a cap on what it may print, and nothing left behind.
 *
 * The program leads its own process group (detached), and the whole group is
 * killed at the deadline and once the program has exited: a shell wrapper's
 * children die with it. The run ends on the program's exit, with a bounded
 * wait for the rest of its output, never on the pipes closing alone (a
 * grandchild may hold them open for ever). Under Bun (OpenCode's runtime)
 * `Bun.spawn` is used, under Node `node:child_process`.
 */
import { spawn } from 'node:child_process';

/** How a run ended. */
export type ProcessOutcome =
  | { kind: 'exited'; code: number | null; signal: string | null; stdout: string; stderr: string }
  | { kind: 'timeout'; stdout: string; stderr: string }
  | { kind: 'output-too-large'; stdout: string; stderr: string }
  | { kind: 'spawn-failed'; message: string };

/** Limits of one run. */
export interface RunLimits {
  timeoutMs: number;
  maxStdoutBytes: number;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
}

const MAX_STDERR_BYTES = 64 * 1024;

/** How long output may still arrive after the program exited. */
export const OUTPUT_GRACE_MS = 200;

/** How long a killed program may take to be reaped before the run ends without it. */
export const KILL_GRACE_MS = 500;

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
    detached?: boolean;
  }): BunSubprocess;
}

function bunRuntime(): BunRuntime | undefined {
  return (globalThis as { Bun?: BunRuntime }).Bun;
}

/** Collects chunks up to a byte cap; `overflowed` once past it. */
class Collector {
  private readonly chunks: Buffer[] = [];
  private bytes = 0;
  overflowed = false;
  constructor(private readonly cap: number) {}
  push(chunk: Uint8Array): boolean {
    if (this.overflowed) return false;
    if (this.bytes + chunk.byteLength > this.cap) {
      this.chunks.push(Buffer.from(chunk.subarray(0, this.cap - this.bytes)));
      this.bytes = this.cap;
      this.overflowed = true;
      return false;
    }
    this.chunks.push(Buffer.from(chunk));
    this.bytes += chunk.byteLength;
    return true;
  }
  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

/** SIGKILL to the group `pid` leads; the leader alone when the group is gone or was never made. */
function killGroup(pid: number | undefined, fallback: () => void): void {
  try {
    if (pid) process.kill(-pid, 'SIGKILL');
    else fallback();
  } catch {
    // No such group (everything in it has exited).
    try {
      fallback();
    } catch {
      // Already gone.
    }
  }
}

/** A timer that does not keep the process alive. */
function after(ms: number, action: () => void): NodeJS.Timeout {
  const timer = setTimeout(action, ms);
  timer.unref?.();
  return timer;
}

/** An exit as both runtimes report it. */
interface Exit {
  code: number | null;
  signal: string | null;
}

/** One run's bookkeeping, shared by both runtimes: the deadline, the abort signal, and the one place the outcome is decided. */
interface RunState {
  stdout: Collector;
  stderr: Collector;
  /** Stops the run: the group is killed, and the run ends at the exit or after `KILL_GRACE_MS`. */
  stop(reason: 'timeout' | 'output-too-large'): void;
  /** The program exited: the rest of its output may take `OUTPUT_GRACE_MS`, no longer. */
  exited(exit: Exit, outputDone: Promise<unknown>): void;
  /** The program could not start. */
  failed(message: string): void;
}

function runState(limits: RunLimits, killAll: () => void, finish: (outcome: ProcessOutcome) => void): RunState {
  const stdout = new Collector(limits.maxStdoutBytes);
  const stderr = new Collector(MAX_STDERR_BYTES);
  let stopped: 'timeout' | 'output-too-large' | null = null;
  let settled = false;
  const timers: NodeJS.Timeout[] = [];
  const onAbort = (): void => stop('timeout');
  const end = (outcome: () => ProcessOutcome, kill: boolean): void => {
    if (settled) return;
    settled = true;
    for (const timer of timers) clearTimeout(timer);
    limits.signal?.removeEventListener('abort', onAbort);
    // Whatever the program left running in its group goes with it.
    if (kill) killAll();
    finish(outcome());
  };
  const settle = (exit: Exit | null): void =>
    end(() => {
      if (stopped) return { kind: stopped, stdout: stdout.text(), stderr: stderr.text() };
      if (exit) return { kind: 'exited', code: exit.code, signal: exit.signal, stdout: stdout.text(), stderr: stderr.text() };
      return { kind: 'timeout', stdout: stdout.text(), stderr: stderr.text() };
    }, true);
  function stop(reason: 'timeout' | 'output-too-large'): void {
    if (stopped || settled) return;
    stopped = reason;
    killAll();
    // The exit normally follows at once; a program that cannot be reaped does not hold the caller.
    timers.push(after(KILL_GRACE_MS, () => settle(null)));
  }
  timers.push(after(limits.timeoutMs, () => stop('timeout')));
  limits.signal?.addEventListener('abort', onAbort, { once: true });
  return {
    stdout,
    stderr,
    stop,
    exited(exit, outputDone) {
      timers.push(after(OUTPUT_GRACE_MS, () => settle(exit)));
      void outputDone.then(() => settle(exit));
    },
    failed: (message) => end(() => ({ kind: 'spawn-failed', message }), false),
  };
}

function runWithNode(file: string, args: readonly string[], limits: RunLimits): Promise<ProcessOutcome> {
  return new Promise((resolvePromise) => {
    let child: ReturnType<typeof spawn>;
    try {
      // detached: the child leads its own process group, so a kill reaches anything it started.
      child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'], env: limits.env, detached: true, shell: false });
    } catch (error) {
      resolvePromise({ kind: 'spawn-failed', message: (error as Error).message });
      return;
    }
    const out = child.stdout as NonNullable<typeof child.stdout>;
    const err = child.stderr as NonNullable<typeof child.stderr>;
    const state = runState(
      limits,
      () => killGroup(child.pid, () => child.kill('SIGKILL')),
      (outcome) => {
        // Pipes a grandchild may still hold are closed on this side.
        out.destroy();
        err.destroy();
        resolvePromise(outcome);
      },
    );
    const ended = (stream: NodeJS.ReadableStream): Promise<void> =>
      new Promise((resolve) => {
        stream.once('end', resolve);
        stream.once('close', resolve);
        stream.once('error', () => resolve());
      });
    const outputDone = Promise.all([ended(out), ended(err)]);
    out.on('data', (chunk: Buffer) => {
      if (!state.stdout.push(chunk)) state.stop('output-too-large');
    });
    err.on('data', (chunk: Buffer) => void state.stderr.push(chunk));
    // Without a pid the program never started; with one, 'exit' follows any error.
    child.once('error', (error) => {
      if (child.pid === undefined) state.failed(error.message);
    });
    child.once('exit', (code, signal) => state.exited({ code, signal }, outputDone));
  });
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
    child = bun.spawn({ cmd: [file, ...args], stdin: 'ignore', stdout: 'pipe', stderr: 'pipe', env: limits.env, detached: true });
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
      (error: unknown) => state.failed((error as Error)?.message ?? String(error)),
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
  return bun ? runWithBun(bun, file, args, limits) : runWithNode(file, args, limits);
}
