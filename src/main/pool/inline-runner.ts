/**
 * Runs the pool's tasks on the calling thread: for tests, benchmarks, and as
 * the fallback for small inputs when the pool cannot serve. Loaded lazily so
 * the hook thread never pays for the parsers unless it falls back.
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
