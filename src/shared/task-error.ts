/**
 * Turns anything thrown into the one error shape that crosses threads.
 */
import type { TaskError, TaskErrorCode } from '../workers/protocol.js';

/**
 * @param error - whatever was thrown or rejected.
 * @param code - the code to report it under.
 */
export function toTaskError(error: unknown, code: TaskErrorCode): TaskError {
  if (error instanceof Error) return { code, message: error.message || error.name };
  if (typeof error === 'string') return { code, message: error };
  return { code, message: 'unknown failure' };
}
