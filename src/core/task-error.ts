/**
 * Failures as data: the one error shape that crosses threads, and a way to
 * turn anything thrown into it.
 */

/** Why a pooled task did not produce a value. */
export type TaskErrorCode =
  | 'INVALID_INPUT'
  | 'TASK_FAILED'
  | 'TIMEOUT'
  | 'WORKER_CRASHED'
  | 'QUEUE_FULL'
  | 'POOL_UNAVAILABLE'
  | 'POOL_DESTROYED';

/** A failure as data. */
export interface TaskError {
  code: TaskErrorCode;
  message: string;
}

/** The result of every task: a value or an error, never a throw. */
export type TaskResult<T> = { ok: true; value: T } | { ok: false; error: TaskError };

/**
 * @param error - whatever was thrown or rejected.
 * @param code - the code to report it under.
 */
export function toTaskError(error: unknown, code: TaskErrorCode): TaskError {
  if (error instanceof Error) return { code, message: error.message || error.name };
  if (typeof error === 'string') return { code, message: error };
  return { code, message: 'unknown failure' };
}
