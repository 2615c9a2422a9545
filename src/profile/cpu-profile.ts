/**
 * V8 CPU profiles (the `.cpuprofile` format Chrome DevTools and speedscope
 * open): taking one on the current thread through `node:inspector`, reading
 * its samples on a clock shared by every thread, and merging several taken on
 * one thread into one file.
 */
import { Session } from 'node:inspector';
import { performance } from 'node:perf_hooks';

/** Where a profile node's code is. */
export interface CallFrame {
  functionName: string;
  scriptId: string | number;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

/** One node of the profile's call tree. */
export interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  hitCount?: number;
  children?: number[];
}

/** A CPU profile as `Profiler.stop` returns it; times in microseconds on the profiler's clock. */
export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  /** The node each sample hit. */
  samples: number[];
  /** Microseconds from the previous sample (the first: from `startTime`). */
  timeDeltas: number[];
}

/** A profile and the milliseconds to add to its clock (in ms) to read it as `performance.timeOrigin + performance.now()`. */
export interface TimedProfile {
  profile: CpuProfile;
  offsetMs: number;
}

/** One sample as the tables read it: when, for how long, and the node it hit. */
export interface Sample {
  /** Epoch milliseconds (`performance.timeOrigin + performance.now()` of the thread that took it). */
  at: number;
  /** Until the next sample, or the profile's end. */
  ms: number;
  node: number;
}

/** Milliseconds since the epoch on this thread's clock, comparable across threads. */
export function epochNow(): number {
  return performance.timeOrigin + performance.now();
}

/** Whether this runs in Bun (OpenCode's runtime) rather than Node. */
const ON_BUN = typeof (globalThis as { Bun?: unknown }).Bun !== 'undefined';

/**
 * Bun 1.3 answers the inspector's profiler calls on every thread, but runs one profiler for the whole
 * process: a worker's stop ends the hook thread's profile, so the threads cannot be profiled side by side.
 */
export const BUN_REASON = 'its inspector runs one profiler for the whole process, so a worker stopping its profile stops the hook thread\'s';

/** Takes CPU profiles of the thread that created it. */
export interface ThreadProfiler {
  start(): Promise<void>;
  /** Stops the running profile and returns it with its clock offset. */
  stop(): Promise<TimedProfile>;
}

/**
 * Connects an inspector session to this thread (the main thread or a worker).
 * Node answers its callbacks at once, Bun on a later turn: both are awaited.
 *
 * @param intervalUs - sampling interval in microseconds.
 * @throws Error under Bun, and when the runtime has no working inspector (the caller reports it).
 */
export async function createThreadProfiler(intervalUs: number): Promise<ThreadProfiler> {
  if (ON_BUN) throw new Error(BUN_REASON);
  const session = new Session();
  session.connect();
  const post = (method: string, params: object = {}): Promise<unknown> =>
    new Promise((resolve, reject) => {
      session.post(method, params, (error, result) => (error ? reject(error) : resolve(result)));
    });
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: intervalUs });
  let startedAt = 0;
  return {
    async start() {
      startedAt = epochNow();
      await post('Profiler.start');
    },
    async stop() {
      const { profile } = (await post('Profiler.stop')) as { profile: CpuProfile };
      // The profile starts when it was asked for: its first microsecond is `startedAt` on the shared clock.
      return { profile, offsetMs: startedAt - profile.startTime / 1000 };
    },
  };
}

/**
 * The samples of a profile on the shared clock, each lasting until the next one (the last until the
 * profile's end), as DevTools weighs them.
 *
 * @param timed - the profile and its clock offset.
 */
export function samplesOf(timed: TimedProfile): Sample[] {
  const { profile, offsetMs } = timed;
  const samples: Sample[] = [];
  let time = profile.startTime;
  for (let index = 0; index < profile.samples.length; index++) {
    time += profile.timeDeltas[index] ?? 0;
    const next = index + 1 < profile.samples.length ? time + (profile.timeDeltas[index + 1] ?? 0) : Math.max(time, profile.endTime);
    samples.push({ at: time / 1000 + offsetMs, ms: Math.max(0, next - time) / 1000, node: profile.samples[index] ?? 0 });
  }
  return samples;
}

/** A profile with the span, in epoch milliseconds, of the compaction or task it was taken for. */
export interface SpannedProfile {
  timed: TimedProfile;
  start: number;
  end: number;
}

/**
 * The profile with its samples outside the span (the profiler starting and stopping, the thread
 * waiting for work) on no node, which `mergeProfiles` counts as `(idle)`: the time the tables count
 * and nothing else. A thread's first profile can spend tens of milliseconds starting.
 *
 * @param spanned - the profile, its clock offset and its span.
 */
export function profileWithin(spanned: SpannedProfile): CpuProfile {
  const { timed, start, end } = spanned;
  const times = samplesOf(timed);
  return { ...timed.profile, samples: timed.profile.samples.map((node, index) => ((times[index]?.at ?? Number.NaN) >= start && (times[index]?.at ?? Number.NaN) < end ? node : -1)) };
}

/** Each node's parent id (the root has none). */
export function parentsOf(profile: CpuProfile): Map<number, number> {
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  return parents;
}

const IDLE_FRAME: CallFrame = { functionName: '(idle)', scriptId: 0, url: '', lineNumber: -1, columnNumber: -1 };

function frameKey(frame: CallFrame): string {
  return `${frame.functionName}\u0000${frame.url}\u0000${frame.lineNumber}\u0000${frame.columnNumber}`;
}

/**
 * Several profiles of one thread (one per task) as one: call trees merged by call path, samples in
 * time order, and the time between two profiles shown as `(idle)`, so no sample is stretched over it.
 *
 * @param parts - profiles of the same thread, on the same clock.
 */
export function mergeProfiles(parts: readonly CpuProfile[]): CpuProfile {
  const sorted = [...parts].sort((a, b) => a.startTime - b.startTime);
  const nodes: ProfileNode[] = [{ id: 1, callFrame: { functionName: '(root)', scriptId: 0, url: '', lineNumber: -1, columnNumber: -1 }, hitCount: 0, children: [] }];
  const byPath = new Map<string, number>();
  const childOf = (parent: number, frame: CallFrame): number => {
    const key = `${parent}\u0001${frameKey(frame)}`;
    let id = byPath.get(key);
    if (id === undefined) {
      id = nodes.length + 1;
      nodes.push({ id, callFrame: frame, hitCount: 0, children: [] });
      nodes[parent - 1]?.children?.push(id);
      byPath.set(key, id);
    }
    return id;
  };
  const idle = childOf(1, IDLE_FRAME);
  const times: number[] = [];
  const samples: number[] = [];
  for (const part of sorted) {
    const byId = new Map(part.nodes.map((node) => [node.id, node]));
    const parents = parentsOf(part);
    const mapped = new Map<number, number>();
    const root = part.nodes.find((node) => !parents.has(node.id));
    if (root) mapped.set(root.id, 1);
    // Parents come before their children in a walk from the root.
    const queue = root ? [...(root.children ?? [])] : [];
    for (let next = 0; next < queue.length; next++) {
      const id = queue[next] as number;
      const node = byId.get(id);
      const parent = mapped.get(parents.get(id) ?? -1);
      if (!node || parent === undefined) continue;
      mapped.set(id, childOf(parent, node.callFrame));
      queue.push(...(node.children ?? []));
    }
    let time = part.startTime;
    part.samples.forEach((sample, index) => {
      time += part.timeDeltas[index] ?? 0;
      times.push(time);
      samples.push(mapped.get(sample) ?? idle);
    });
    times.push(Math.max(time, part.endTime));
    samples.push(idle);
  }
  for (const sample of samples) {
    const node = nodes[sample - 1];
    if (node) node.hitCount = (node.hitCount ?? 0) + 1;
  }
  const startTime = sorted[0]?.startTime ?? 0;
  const timeDeltas = times.map((time, index) => Math.max(0, time - (index === 0 ? startTime : (times[index - 1] as number))));
  return { nodes, startTime, endTime: Math.max(startTime, sorted.at(-1)?.endTime ?? startTime), samples, timeDeltas };
}
