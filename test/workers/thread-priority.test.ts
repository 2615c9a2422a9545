import { isMainThread } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { lowerThreadPriority, MAX_NICE } from '../../src/workers/thread-priority.js';

describe('lowerThreadPriority', () => {
  it('should change nothing for a niceness of 0 or one that is not a positive integer', () => {
    for (const niceness of [0, -3, 1.5, Number.NaN]) expect(lowerThreadPriority(niceness)).toEqual({ kind: 'unchanged', reason: 'niceness 0' });
  });

  it('should change nothing where a process has one priority for all its threads', () => {
    expect(lowerThreadPriority(10, 'darwin')).toEqual({ kind: 'unchanged', reason: 'threads share one priority on darwin' });
    expect(lowerThreadPriority(10, 'win32')).toEqual({ kind: 'unchanged', reason: 'threads share one priority on win32' });
  });

  it.runIf(process.platform === 'linux' && isMainThread)("should never lower the host's own thread", () => {
    expect(lowerThreadPriority(MAX_NICE)).toEqual({ kind: 'unchanged', reason: "the host's thread" });
  });
});
