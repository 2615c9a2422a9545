/**
 * The Node side of running a program: `node:child_process` in its own
 * process group, with the limits of process-run-state.ts. It runs on the
 * spawn thread (spawn-worker.ts), or on the caller's thread where no thread
 * can start; kept apart from process-runner.ts so the spawn thread loads
 * only this and the run state, and the runner and its thread do not import
 * each other.
 */
import { spawn } from 'node:child_process';
import { killGroup, runState, type ProcessOutcome, type RunLimits } from './process-run-state.js';

/**
 * Runs `file` in its own process group with the limits' deadline, output cap and abort signal, through
 * `node:child_process` on the calling thread: the spawn thread's (spawn-worker.ts), or the caller's when
 * no thread can start.
 *
 * @param file - the program's path.
 * @param args - its arguments, one element each (no shell parsing).
 * @param limits - deadline, output cap, environment, working folder, abort signal.
 */
export function runWithNode(file: string, args: readonly string[], limits: RunLimits): Promise<ProcessOutcome> {
  return new Promise((resolvePromise) => {
    let child: ReturnType<typeof spawn>;
    try {
      // detached: the child leads its own process group, so a kill reaches anything it started.
      child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'], env: limits.env, cwd: limits.cwd, detached: true, shell: false });
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
