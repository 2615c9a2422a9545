/**
 * Work that outlives the hook that started it (a memory write finished after
 * the compaction went on): tracked, so shutdown and tests can wait for it,
 * and never able to reject unobserved.
 */

/** Tracks background promises. */
export interface BackgroundWork {
  /** Starts tracking; a rejection is reported to `onError` and swallowed. */
  run(label: string, work: () => Promise<unknown>): void;
  /** Resolves when everything started so far has settled. */
  idle(): Promise<void>;
  readonly pending: number;
  /** The labels of the work still running, in the order it started (for a shutdown that stops waiting). */
  pendingLabels(): string[];
}

/**
 * @param onError - told about each failed piece of work.
 */
export function createBackgroundWork(onError: (label: string, error: unknown) => void): BackgroundWork {
  const pending = new Map<Promise<void>, string>();
  return {
    run(label, work) {
      let tracked: Promise<void>;
      try {
        tracked = Promise.resolve(work()).then(
          () => undefined,
          (error: unknown) => onError(label, error),
        );
      } catch (error) {
        onError(label, error);
        return;
      }
      const settled = tracked.finally(() => pending.delete(settled));
      pending.set(settled, label);
    },
    async idle() {
      while (pending.size > 0) await Promise.all([...pending.keys()]);
    },
    get pending() {
      return pending.size;
    },
    pendingLabels: () => [...pending.values()],
  };
}
