/**
 * Runs the pool's tasks on the calling thread: for tests, benchmarks, and as
 * the fallback for small inputs when the pool cannot serve. The task modules
 * are imported when the runner is made, or with `lazyInlineRunner` at its
 * first task, so a thread that may never run one (the hook thread, which runs
 * tasks inline only when the pool fails it) never pays for the parsers.
 */
import type { TaskName, TaskResult } from '../../workers/protocol.js';
import { toTaskError } from '../../core/task-error.js';
import type { RunControls, TaskRunner, TaskSignatures } from './task-runner.js';

/** A runner that calls the worker's task functions directly. */
export async function createInlineRunner(): Promise<TaskRunner> {
  const worker = await import('../../workers/extract-worker.js');
  return {
    async run<N extends TaskName>(
      name: N,
      input: TaskSignatures[N]['input'],
      controls: RunControls = {},
    ): Promise<TaskResult<TaskSignatures[N]['output']>> {
      if (controls.signal?.aborted) return { ok: false, error: { code: 'TIMEOUT', message: 'aborted before start' } };
      try {
        return worker.TASKS[name](input) as TaskResult<TaskSignatures[N]['output']>;
      } catch (error) {
        return { ok: false, error: toTaskError(error, 'TASK_FAILED') };
      }
    },
  };
}

/** {@link createInlineRunner}, made at its first task. */
export function lazyInlineRunner(): TaskRunner {
  let inline: Promise<TaskRunner> | null = null;
  return {
    async run<N extends TaskName>(name: N, input: TaskSignatures[N]['input'], controls: RunControls = {}): Promise<TaskResult<TaskSignatures[N]['output']>> {
      inline ??= createInlineRunner();
      return (await inline).run(name, input, controls);
    },
  };
}
