/**
 * Time per stage of the extraction passes: summed into the pass's output (the bench and the log
 * read it), and told as it happens to an observer `npm run profile` sets in its workers.
 */
import { performance } from 'node:perf_hooks';
import type { StageTimings } from './analysis.js';

/** Told of each stage as it ends: its label and its start and end (`performance.now()`). */
export type StageObserver = (stage: string, start: number, end: number) => void;

/**
 * The observer `npm run profile` sets in its workers, to place each stage on the CPU profile's
 * timeline; `null` everywhere else, so a stage pays one comparison for it.
 */
let stageObserver: StageObserver | null = null;

/**
 * Sets (or, with `null`, removes) the observer of this thread's stages.
 *
 * @param observer - called with every stage `timed` measures, after the stage's time is added.
 */
export function observeStages(observer: StageObserver | null): void {
  stageObserver = observer;
}

/** Adds the time `work` takes to `timings[stage]`. */
export function timed<T>(timings: StageTimings, stage: string, work: () => T): T {
  const start = performance.now();
  try {
    return work();
  } finally {
    const end = performance.now();
    timings[stage] = (timings[stage] ?? 0) + (end - start);
    if (stageObserver !== null) stageObserver(stage, start, end);
  }
}
