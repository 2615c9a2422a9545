/**
 * The task runner the profile command gives the extraction engine: the pool
 * of profiled workers, with each task's record taken off its result (the
 * engine sees the result it always sees) and kept with when it was sent and
 * when its result came back.
 */
import type { TaskRunner } from '../main/pool/task-runner.js';
import type { WorkerPool } from '../main/pool/worker-pool.js';
import { epochNow } from './cpu-profile.js';
import type { ProfiledResult, TaskRecord } from './profiled-worker.js';

/** A task as both threads saw it, in epoch milliseconds. */
export interface TaskTrip extends TaskRecord {
  /** When the hook thread asked for the task, and when its result was back there. */
  sentAt: number;
  resolvedAt: number;
  /** When the hook thread's synchronous part of the call (handing the input over) ended. */
  dispatchedAt: number;
}

/** A runner that keeps the trip of every task it runs. */
export interface RecordingRunner extends TaskRunner {
  /** The trips since the last call, and forgets them. */
  take(): TaskTrip[];
}

/**
 * @param pool - a pool started with the profiled worker (`profiled-worker.ts`).
 */
export function recordingRunner(pool: WorkerPool): RecordingRunner {
  let trips: TaskTrip[] = [];
  return {
    async run(name, input, controls) {
      const sentAt = epochNow();
      const pending = pool.run(name, input, controls);
      const dispatchedAt = epochNow();
      const result = (await pending) as ProfiledResult;
      const resolvedAt = epochNow();
      const { profiling, ...plain } = result;
      if (profiling) trips.push({ ...profiling, sentAt, dispatchedAt, resolvedAt });
      return plain as Awaited<typeof pending>;
    },
    take() {
      const taken = trips;
      trips = [];
      return taken;
    },
  };
}
