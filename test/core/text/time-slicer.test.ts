import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createTimeSlicer, yieldToHost } from '../../../src/core/text/time-slicer.js';

/** Spins until `ms` have passed on the clock the slicer reads: work that holds the thread. */
function hold(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // Busy: nothing else runs meanwhile.
  }
}

describe('yieldToHost', () => {
  it('should let work that is waiting run before the caller goes on', async () => {
    const order: string[] = [];
    setImmediate(() => order.push('host'));
    await yieldToHost();
    order.push('caller');
    expect(order).toEqual(['host', 'caller']);
  });

  it('should let a due timer run first when the caller goes on from an I/O callback, as after a host answer', async () => {
    const order: string[] = [];
    // A read resolves in the loop's poll phase: one immediate from there runs before the timers.
    await readFile(fileURLToPath(import.meta.url));
    setTimeout(() => order.push('timer'), 0);
    hold(3);
    await yieldToHost();
    order.push('caller');
    expect(order).toEqual(['timer', 'caller']);
  });
});

describe('createTimeSlicer', () => {
  it('should be due once a slice has lasted longer than its share, and start a new slice after yielding', async () => {
    const slicer = createTimeSlicer(50);
    expect(slicer.due).toBe(false);
    hold(51);
    expect(slicer.due).toBe(true);
    const order: string[] = [];
    setImmediate(() => order.push('host'));
    await slicer.yield();
    order.push('caller');
    expect(order).toEqual(['host', 'caller']);
    expect(slicer.due).toBe(false);
  });

  it('should count the time of its slices only, not the time paused', () => {
    const slicer = createTimeSlicer(1_000);
    hold(3);
    slicer.pause();
    const spent = slicer.spentMs;
    expect(spent).toBeGreaterThanOrEqual(3);
    hold(3);
    expect(slicer.spentMs).toBe(spent);
    expect(slicer.due).toBe(false);
    slicer.resume();
    hold(3);
    expect(slicer.spentMs).toBeGreaterThanOrEqual(spent + 3);
  });
});
