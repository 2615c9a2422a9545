/**
 * The hook thread's longest stall while some work runs, as the benchmarks measure it: a 1 ms interval
 * timer, and the longest it fired late. Node's `monitorEventLoopDelay` does the same from libuv, but
 * Bun's reported 0 for an extraction that held the thread for 100 ms, so the benchmarks keep their
 * own timer and both runtimes are measured one way.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { yieldToHost } from '../src/core/text/time-slicer.js';

/** The timer's period. */
const TICK_MS = 1;

/** The timer's lateness over a run: `at[i]` ms after the timer started, it fired `delay[i]` ms late. */
export interface DelayTimeline {
  at: number[];
  delay: number[];
}

/**
 * Max lateness (ms) of a {@link TICK_MS} timer over `runs` executions of `work`, the timer started
 * one turn before and read one turn after. Each run is a call of its own, as a host makes them: the loop
 * turns between two runs (a run that needs no I/O would otherwise start the next in the same task, and
 * twenty 3 ms calls read as one 60 ms stall).
 */
export async function maxLoopDelay(work: () => Promise<unknown>, runs = 1): Promise<number> {
  return (await loopDelayTimeline(work, runs)).max;
}

/**
 * {@link maxLoopDelay} with every firing of the timer kept: when it fired and how late.
 *
 * @returns the max lateness (ms) and the timeline.
 */
export async function loopDelayTimeline(work: () => Promise<unknown>, runs = 1): Promise<{ max: number; timeline: DelayTimeline }> {
  const start = performance.now();
  let last = start;
  let worst = 0;
  const timeline: DelayTimeline = { at: [], delay: [] };
  const timer = setInterval(() => {
    const now = performance.now();
    const late = now - last - TICK_MS;
    worst = Math.max(worst, late);
    timeline.at.push(now - start);
    timeline.delay.push(Math.max(0, late));
    last = now;
  }, TICK_MS);
  await nextTurn();
  try {
    for (let run = 0; run < runs; run++) {
      await work();
      // Two turns, as the hook thread hands itself back: the second is the next iteration's, after its timers.
      await yieldToHost();
    }
    // A stall at the very end is only seen when the timer fires next.
    await new Promise((resolve) => setTimeout(resolve, TICK_MS * 2));
  } finally {
    clearInterval(timer);
  }
  return { max: Math.max(0, worst), timeline };
}
