/**
 * Runs a program with an argv array — never through a shell — with a
 * deadline that kills it, a cap on what it may print, and no zombie left
 * behind: the result is returned only after the process has exited.
 * Under Bun (OpenCode's runtime) `Bun.spawn` is used, under Node
 * `node:child_process`.
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

interface BunSubprocess {
  stdout: ReadableStream<Uint8Array>;
  stderr: ReadableStream<Uint8Array>;
  exited: Promise<number>;
  signalCode: string | null;
  kill(signal?: string | number): void;
}
interface BunRuntime {
  spawn(options: { cmd: string[]; stdin: 'ignore'; stdout: 'pipe'; stderr: 'pipe'; env?: Record<string, string | undefined> }): BunSubprocess;
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

function runWithNode(file: string, args: readonly string[], limits: RunLimits): Promise<ProcessOutcome> {
  return new Promise((resolvePromise) => {
    const stdout = new Collector(limits.maxStdoutBytes);
    const stderr = new Collector(MAX_STDERR_BYTES);
    let stopped: 'timeout' | 'output-too-large' | null = null;
    let child;
    try {
      // detached: the child leads its own process group, so a kill reaches anything it started.
      child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'], env: limits.env, detached: true, shell: false });
    } catch (error) {
      resolvePromise({ kind: 'spawn-failed', message: (error as Error).message });
      return;
    }
    const kill = (): void => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
        child.kill('SIGKILL');
      }
    };
    const stop = (reason: 'timeout' | 'output-too-large'): void => {
      if (stopped) return;
      stopped = reason;
      kill();
    };
    const timer = setTimeout(() => stop('timeout'), limits.timeoutMs);
    const onAbort = (): void => stop('timeout');
    limits.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => {
      if (!stdout.push(chunk)) stop('output-too-large');
    });
    child.stderr.on('data', (chunk: Buffer) => void stderr.push(chunk));
    child.on('error', (error) => {
      clearTimeout(timer);
      limits.signal?.removeEventListener('abort', onAbort);
      resolvePromise({ kind: 'spawn-failed', message: error.message });
    });
    // 'close' comes after exit and after both pipes end: the process has been reaped.
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      limits.signal?.removeEventListener('abort', onAbort);
      if (stopped) resolvePromise({ kind: stopped, stdout: stdout.text(), stderr: stderr.text() });
      else resolvePromise({ kind: 'exited', code, signal, stdout: stdout.text(), stderr: stderr.text() });
    });
  });
}

async function drain(stream: ReadableStream<Uint8Array>, collector: Collector, onOverflow: () => void): Promise<void> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      if (!collector.push(value)) onOverflow();
    }
  } catch {
    // The pipe broke because the process was killed: what was read stays.
  }
}

async function runWithBun(bun: BunRuntime, file: string, args: readonly string[], limits: RunLimits): Promise<ProcessOutcome> {
  let child: BunSubprocess;
  try {
    child = bun.spawn({ cmd: [file, ...args], stdin: 'ignore', stdout: 'pipe', stderr: 'pipe', env: limits.env });
  } catch (error) {
    return { kind: 'spawn-failed', message: (error as Error).message };
  }
  const stdout = new Collector(limits.maxStdoutBytes);
  const stderr = new Collector(MAX_STDERR_BYTES);
  let stopped: 'timeout' | 'output-too-large' | null = null;
  const stop = (reason: 'timeout' | 'output-too-large'): void => {
    if (stopped) return;
    stopped = reason;
    child.kill('SIGKILL');
  };
  const timer = setTimeout(() => stop('timeout'), limits.timeoutMs);
  const onAbort = (): void => stop('timeout');
  limits.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const [code] = await Promise.all([
      child.exited,
      drain(child.stdout, stdout, () => stop('output-too-large')),
      drain(child.stderr, stderr, () => undefined),
    ]);
    if (stopped) return { kind: stopped, stdout: stdout.text(), stderr: stderr.text() };
    return { kind: 'exited', code, signal: child.signalCode, stdout: stdout.text(), stderr: stderr.text() };
  } finally {
    clearTimeout(timer);
    limits.signal?.removeEventListener('abort', onAbort);
  }
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
