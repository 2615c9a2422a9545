/**
 * The pool's worker as `npm run profile` starts it: the production worker's
 * tasks, each run under a CPU profile of its own thread, with the stages the
 * task measured placed on the same clock. The production pool never loads
 * this file.
 *
 * The result is the task's own (so the pool and the engine read it as they
 * always do) with one more field, `profiling`, which the profile command's
 * runner takes off before the engine sees it.
 */
import { threadId } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import runTask from '../workers/extract-worker.js';
import { observeStages } from '../core/extraction/pipeline/stage-timing.js';
import { createThreadProfiler, epochNow, type ThreadProfiler } from './cpu-profile.js';
import type { TaskResult } from '../workers/protocol.js';

/** One stage of a task, in epoch milliseconds. */
export interface StageSpan {
  stage: string;
  start: number;
  end: number;
}

/** What a worker reports about one task it ran, in epoch milliseconds. */
export interface TaskRecord {
  threadId: number;
  task: string;
  /** When the task reached the worker (its input copied). */
  enteredAt: number;
  /** When the task's work began (after the profiler started) and ended (before it stopped). */
  startedAt: number;
  finishedAt: number;
  /** When the result was handed to the pool to copy back. */
  returnedAt: number;
  stages: StageSpan[];
  /** The task's CPU profile as JSON (a string crosses the thread in one copy), `null` when none could be taken. */
  profile: string | null;
  /** Milliseconds to add to the profile's clock (in ms) to read it in epoch milliseconds. */
  offsetMs: number;
  /** Why there is no profile. */
  profileError?: string;
}

/** A task's result with its record attached. */
export type ProfiledResult = TaskResult<unknown> & { profiling?: TaskRecord };

/** Sampling interval of the workers' profiles, in microseconds: a quarter of V8's default, for stages of a few milliseconds. */
export const SAMPLING_INTERVAL_US = 250;

let profiler: Promise<ThreadProfiler> | null = null;
let stages: StageSpan[] = [];
// `timed` reports `performance.now()`; the record speaks epoch milliseconds, like the other threads.
observeStages((stage, start, end) => stages.push({ stage, start: performance.timeOrigin + start, end: performance.timeOrigin + end }));

function taskName(request: unknown): string {
  const name = typeof request === 'object' && request !== null ? (request as { name?: unknown }).name : undefined;
  return typeof name === 'string' ? name : '?';
}

/**
 * Runs a task as the production worker does, under a CPU profile. The warm-up is not profiled: it
 * runs when the pool starts, before any compaction.
 *
 * @param request - `{ name, input }`, as the pool sends it.
 */
export default async function runProfiledTask(request: unknown): Promise<ProfiledResult> {
  const enteredAt = epochNow();
  const task = taskName(request);
  if (task === 'warmUp') return runTask(request);
  let profileError: string | undefined;
  let running: ThreadProfiler | null = null;
  try {
    profiler ??= createThreadProfiler(SAMPLING_INTERVAL_US);
    running = await profiler;
    await running.start();
  } catch (error) {
    running = null;
    profileError = error instanceof Error ? error.message : String(error);
  }
  stages = [];
  const startedAt = epochNow();
  const result = runTask(request);
  const finishedAt = epochNow();
  let profile: string | null = null;
  let offsetMs = 0;
  if (running) {
    try {
      const taken = await running.stop();
      profile = JSON.stringify(taken.profile);
      offsetMs = taken.offsetMs;
    } catch (error) {
      profileError = error instanceof Error ? error.message : String(error);
    }
  }
  const record: TaskRecord = { threadId, task, enteredAt, startedAt, finishedAt, returnedAt: epochNow(), stages, profile, offsetMs, ...(profileError !== undefined ? { profileError } : {}) };
  return { ...result, profiling: record };
}
