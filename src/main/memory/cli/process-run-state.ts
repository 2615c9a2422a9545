/**
 * One run's bookkeeping, shared by both runtimes of process-runner.ts: the
 * output caps, the deadline, the abort signal, the group kill and the one
 * place the outcome is decided.
 */

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
  /** The working folder. @default this process's */
  cwd?: string;
  signal?: AbortSignal;
}

const MAX_STDERR_BYTES = 64 * 1024;

/** How long output may still arrive after the program exited. */
export const OUTPUT_GRACE_MS = 200;

/** How long a killed program may take to be reaped before the run ends without it. */
export const KILL_GRACE_MS = 500;

/** Collects chunks up to a byte cap; `overflowed` once past it. */
export class Collector {
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
export function killGroup(pid: number | undefined, fallback: () => void): void {
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
export interface Exit {
  code: number | null;
  signal: string | null;
}

/** One run's bookkeeping, shared by both runtimes: the deadline, the abort signal, and the one place the outcome is decided. */
export interface RunState {
  stdout: Collector;
  stderr: Collector;
  /** Stops the run: the group is killed, and the run ends at the exit or after `KILL_GRACE_MS`. */
  stop(reason: 'timeout' | 'output-too-large'): void;
  /** The program exited: the rest of its output may take `OUTPUT_GRACE_MS`, no longer. */
  exited(exit: Exit, outputDone: Promise<unknown>): void;
  /** The program could not start. */
  failed(message: string): void;
}

/**
 * @param limits - deadline, output cap and abort signal of the run.
 * @param killAll - kills the program's process group.
 * @param finish - told the outcome, once.
 */
export function runState(limits: RunLimits, killAll: () => void, finish: (outcome: ProcessOutcome) => void): RunState {
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

