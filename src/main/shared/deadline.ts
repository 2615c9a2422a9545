/**
 * Deadlines for hook work: a hook must never wait longer than its budget,
 * whatever the work it awaits does.
 */

/** The outcome of {@link withDeadline}. */
export type DeadlineResult<T> = { done: true; value: T } | { done: false; reason: 'timeout' | 'failed'; error?: unknown };

/**
 * Waits for `work` at most `ms` milliseconds. The work is not cancelled: pass
 * it a signal from `controller` if it should stop.
 *
 * @param work - the promise to wait for.
 * @param ms - the budget.
 * @param controller - aborted when the budget runs out.
 */
export async function withDeadline<T>(work: Promise<T>, ms: number, controller?: AbortController): Promise<DeadlineResult<T>> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<DeadlineResult<T>>((resolve) => {
    timer = setTimeout(() => {
      controller?.abort(new Error(`deadline of ${ms} ms passed`));
      resolve({ done: false, reason: 'timeout' });
    }, ms);
    timer.unref?.();
  });
  const settled = work.then(
    (value): DeadlineResult<T> => ({ done: true, value }),
    (error: unknown): DeadlineResult<T> => ({ done: false, reason: 'failed', error }),
  );
  try {
    return await Promise.race([settled, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
