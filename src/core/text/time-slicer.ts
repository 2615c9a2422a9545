/**
 * Work on a thread that others share, cut into short slices: between slices
 * the thread serves whatever is waiting (OpenCode's server answers its
 * clients on the thread its plugins' hooks run on). Nothing here knows of
 * the host: it only measures time and hands the event loop back.
 */
import { performance } from 'node:perf_hooks';
import { setImmediate } from 'node:timers/promises';

/**
 * Milliseconds a slice may last before the thread is handed back: a few, so a request that arrives
 * during the work waits at most that long.
 */
export const SLICE_MS = 4;

/**
 * Hands the thread back once: whatever is waiting runs before the caller goes on. Two turns of the check
 * phase, not one: work that goes on from an I/O callback (the host's answer to a read) runs in the loop's
 * poll phase, and an immediate queued there runs in the same iteration's check phase, before any timer or
 * other I/O. The first turn reaches the check phase, the second the next iteration's, after its timers and
 * its poll. Measured in Node 20 and OpenCode's Bun, 4 ms slices after a file read: a 1 ms timer fired 8–11 ms
 * late with one turn, 4 ms with two.
 */
export async function yieldToHost(): Promise<void> {
  await setImmediate();
  await setImmediate();
}

/** Measures the slices of one piece of work; see {@link createTimeSlicer}. */
export interface TimeSlicer {
  /** Whether the current slice has lasted longer than its share: the caller should {@link TimeSlicer.yield} now. */
  readonly due: boolean;
  /** Ends the current slice, hands the thread back, and starts the next slice. */
  yield(): Promise<void>;
  /** Ends the current slice without handing the thread back: the caller awaits something else. */
  pause(): void;
  /** Starts a slice again after {@link TimeSlicer.pause}. */
  resume(): void;
  /** Milliseconds spent in slices so far (the current one up to now, unless paused). */
  readonly spentMs: number;
}

/**
 * A slicer whose first slice starts now.
 *
 * @param sliceMs - how long a slice may last. @default SLICE_MS
 */
export function createTimeSlicer(sliceMs = SLICE_MS): TimeSlicer {
  let start: number | null = performance.now();
  let spent = 0;
  const end = (): void => {
    if (start !== null) spent += performance.now() - start;
    start = null;
  };
  return {
    get due() {
      return start !== null && performance.now() - start > sliceMs;
    },
    async yield() {
      end();
      await yieldToHost();
      start = performance.now();
    },
    pause: end,
    resume() {
      start ??= performance.now();
    },
    get spentMs() {
      return spent + (start === null ? 0 : performance.now() - start);
    },
  };
}
