/**
 * The one interface the engine needs from whatever runs a task: the worker
 * pool in production, the same task functions inline in tests and benchmarks.
 */
import type { TaskName, TaskResult, TaskSignatures } from '../../workers/protocol.js';

export type { TaskSignatures } from '../../workers/protocol.js';

/** Per-call controls. */
export interface RunControls {
  /** Aborts the task (a pooled task's worker is then replaced). */
  signal?: AbortSignal;
}

/** Runs named tasks and reports every outcome as a value. */
export interface TaskRunner {
  run<N extends TaskName>(
    name: N,
    input: TaskSignatures[N]['input'],
    controls?: RunControls,
  ): Promise<TaskResult<TaskSignatures[N]['output']>>;
}
