/**
 * The hook thread's longest stall while some work runs, as the benchmarks measure it.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Max event-loop delay (ms) over `runs` executions of `work`, the monitor enabled one turn before and
 * read one turn after.
 */
export async function maxLoopDelay(work: () => Promise<unknown>, runs = 1): Promise<number> {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  await nextTurn();
  try {
    for (let run = 0; run < runs; run++) await work();
    await nextTurn();
  } finally {
    histogram.disable();
  }
  return histogram.max / 1e6;
}
