/**
 * The pool, with the same tasks run inline for small inputs when the pool
 * cannot serve (it failed to start, its worker crashed, its queue is full):
 * a few milliseconds on the hook thread beat losing a compaction's context.
 */
import type { AnalyzeInput, TaskName, TaskResult } from '../../workers/protocol.js';
import { unitChars } from '../session/message-unit.js';
import { lazyInlineRunner } from './inline-runner.js';
import type { RunControls, TaskRunner, TaskSignatures } from './task-runner.js';

/** Inputs up to this many characters may run inline. */
export const INLINE_FALLBACK_CHARS = 64 * 1024;

const POOL_FAILURES = new Set(['POOL_UNAVAILABLE', 'POOL_DESTROYED', 'WORKER_CRASHED', 'QUEUE_FULL']);

function inputChars(name: TaskName, input: unknown): number {
  const value = input as Record<string, unknown>;
  const sum = (items: unknown, pick: (item: never) => unknown): number =>
    Array.isArray(items) ? items.reduce((total: number, item) => total + String(pick(item as never) ?? '').length, 0) : 0;
  switch (name) {
    case 'analyzeUnits':
      return (input as AnalyzeInput).units.reduce((total, unit) => total + unitChars(unit), 0);
    case 'finalizeExtraction':
      return sum(value['sections'], (section: string) => section);
    case 'fitContext':
      return sum(value['entries'], (entry: string) => entry);
    case 'projectMemory':
      return sum([...(Array.isArray(value['notes']) ? value['notes'] : []), value['digest']], (note: { content?: string } | null) => note?.content) + String((value['summary'] as { text?: string } | null)?.text ?? '').length;
    case 'summaryThought':
    case 'cleanSummary':
      return typeof value['summary'] === 'string' ? value['summary'].length : 0;
    case 'summaryLists':
      return String(value['summary'] ?? '').length + String((value['note'] as { content?: string } | null)?.content ?? '').length;
    default:
      return 0;
  }
}

/**
 * @param pool - the worker pool.
 * @param onFallback - told each time a task runs inline instead.
 */
export function createFallbackRunner(pool: TaskRunner, onFallback: (name: TaskName, reason: string) => void): TaskRunner {
  const inline = lazyInlineRunner();
  return {
    async run<N extends TaskName>(name: N, input: TaskSignatures[N]['input'], controls: RunControls = {}): Promise<TaskResult<TaskSignatures[N]['output']>> {
      const pooled = await pool.run(name, input, controls);
      if (pooled.ok || !POOL_FAILURES.has(pooled.error.code) || inputChars(name, input) > INLINE_FALLBACK_CHARS) return pooled;
      onFallback(name, `${pooled.error.code}: ${pooled.error.message}`);
      return inline.run(name, input, controls);
    },
  };
}
