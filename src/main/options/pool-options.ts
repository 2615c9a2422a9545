/**
 * Options of the worker pool: all optional on the way in, all filled and
 * validated on the way out, with one issue per rejected value.
 */
import { availableParallelism } from 'node:os';
import type { OptionIssue } from './option-issues.js';

/** Pool options as a user or a caller may give them. */
export interface PoolOptions {
  /**
   * Worker threads kept running (they start with the plugin and stay warm).
   * @default min(4, max(2, cores - 1))
   */
  threads?: number;
  /**
   * Tasks that may wait for a worker; past that, a task fails with QUEUE_FULL at once.
   * @default 256
   */
  maxQueue?: number;
  /**
   * Deadline of one task in milliseconds; a task past it is aborted and its worker replaced.
   * @default 30000
   */
  taskTimeoutMs?: number;
  /**
   * V8 old-generation limit of each worker, in MB: a runaway input kills the worker, not the host.
   * @default 768
   */
  workerHeapMb?: number;
  /**
   * Run a small task on every worker at start so the first real task does not pay for warm-up.
   * @default true
   */
  warmUp?: boolean;
  /**
   * How much lower than the host's each worker thread's scheduling priority is (its nice value, 0–19;
   * Linux only, where each thread has its own): the host's thread gets a core first. 0 keeps the
   * host's priority.
   * @default 10
   */
  niceness?: number;
}

/** Pool options after defaults and validation. */
export type ResolvedPoolOptions = Required<PoolOptions>;

/** The defaults, for documentation and tests. */
export const DEFAULT_POOL_OPTIONS: Readonly<ResolvedPoolOptions> = Object.freeze({
  threads: Math.min(4, Math.max(2, availableParallelism() - 1)),
  maxQueue: 256,
  taskTimeoutMs: 30_000,
  workerHeapMb: 768,
  warmUp: true,
  niceness: 10,
});

function integerIn(
  raw: Record<string, unknown>,
  key: keyof PoolOptions,
  min: number,
  max: number,
  issues: OptionIssue[],
): number | undefined {
  const value = raw[key];
  if (value === undefined) return undefined;
  if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return value;
  issues.push({ key: `pool.${key}`, expected: `an integer from ${min} to ${max}`, actual: value, used: { value: DEFAULT_POOL_OPTIONS[key], from: 'the default' } });
  return undefined;
}

/**
 * Fills and validates pool options. Invalid values are reported and replaced by defaults, never thrown.
 *
 * @param raw - options as given (any shape).
 */
export function resolvePoolOptions(raw: unknown): { options: ResolvedPoolOptions; issues: OptionIssue[] } {
  const issues: OptionIssue[] = [];
  const input = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  if (raw !== undefined && input !== raw) issues.push({ key: 'pool', expected: 'an object', actual: raw, used: { value: 'the defaults', from: 'the default' } });
  const warmUp = input['warmUp'];
  if (warmUp !== undefined && typeof warmUp !== 'boolean') {
    issues.push({ key: 'pool.warmUp', expected: 'true or false', actual: warmUp, used: { value: DEFAULT_POOL_OPTIONS.warmUp, from: 'the default' } });
  }
  const options: ResolvedPoolOptions = {
    threads: integerIn(input, 'threads', 1, 64, issues) ?? DEFAULT_POOL_OPTIONS.threads,
    maxQueue: integerIn(input, 'maxQueue', 1, 100_000, issues) ?? DEFAULT_POOL_OPTIONS.maxQueue,
    taskTimeoutMs: integerIn(input, 'taskTimeoutMs', 1, 3_600_000, issues) ?? DEFAULT_POOL_OPTIONS.taskTimeoutMs,
    workerHeapMb: integerIn(input, 'workerHeapMb', 64, 16_384, issues) ?? DEFAULT_POOL_OPTIONS.workerHeapMb,
    warmUp: typeof warmUp === 'boolean' ? warmUp : DEFAULT_POOL_OPTIONS.warmUp,
    niceness: integerIn(input, 'niceness', 0, 19, issues) ?? DEFAULT_POOL_OPTIONS.niceness,
  };
  return { options, issues };
}
