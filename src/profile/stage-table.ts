/**
 * Where a thread's time went, per stage: the samples of its CPU profiles
 * placed on the stages the code labels, or, without a profile, the stages'
 * own timers. Every row's share is of the same total, so they add up to 100%.
 */
import { parentsOf, samplesOf, type CpuProfile, type TimedProfile } from './cpu-profile.js';
import type { TaskTrip } from './profiled-runner.js';

/** One stage of a thread. */
export interface StageRow {
  stage: string;
  /** Self time in milliseconds: samples in the stage (with a profile) or its timers (without). */
  ms: number;
  /** Percent of the thread's total in this table. */
  share: number;
  /** Times the stage ran; `null` where the profile alone places the time. */
  calls: number | null;
}

/** Where the rows' time comes from. */
export type TableSource = 'profile' | 'timers';

interface Tally {
  ms: number;
  calls: number | null;
}

/** Rows from tallies, largest first, with their shares of the sum. */
export function toRows(tallies: ReadonlyMap<string, Tally>): StageRow[] {
  const total = [...tallies.values()].reduce((sum, tally) => sum + tally.ms, 0);
  return [...tallies.entries()]
    .map(([stage, tally]) => ({ stage, ms: tally.ms, share: total > 0 ? (tally.ms / total) * 100 : 0, calls: tally.calls }))
    .sort((a, b) => b.ms - a.ms);
}

function add(tallies: Map<string, Tally>, stage: string, ms: number, calls: number | null): void {
  const tally = tallies.get(stage);
  if (!tally) tallies.set(stage, { ms, calls });
  else {
    tally.ms += ms;
    tally.calls = tally.calls === null || calls === null ? null : tally.calls + calls;
  }
}

/** The node ids of a profile whose frame is V8's garbage collector. */
function nodesNamed(profile: CpuProfile, name: string): Set<number> {
  return new Set(profile.nodes.filter((node) => node.callFrame.functionName === name).map((node) => node.id));
}

/**
 * The profile when it sampled some time inside the span; `null` otherwise (a task shorter than the
 * sampling interval), so the stages' timers stand in and the shares still have a total.
 */
function sampledWithin(timed: TimedProfile | null, start: number, end: number): TimedProfile | null {
  if (!timed) return null;
  const idle = new Set([...nodesNamed(timed.profile, '(idle)'), ...nodesNamed(timed.profile, '(root)')]);
  return samplesOf(timed).some((sample) => sample.at >= start && sample.at < end && sample.ms > 0 && !idle.has(sample.node)) ? timed : null;
}

/** The stages of the final pass are told apart from the per-message pass's stages of the same name. */
function stageLabel(task: string, stage: string): string {
  return task === 'finalizeExtraction' ? `final: ${stage}` : stage;
}

/** What happens to a task's input and result between the threads: copying, queueing to a free worker, waking the hook thread. */
function handOffMs(trips: readonly TaskTrip[]): number {
  let ms = 0;
  let previousReturn = Number.NEGATIVE_INFINITY;
  for (const trip of [...trips].sort((a, b) => a.enteredAt - b.enteredAt)) {
    // Time a task waited for this worker to finish the one before is queueing, not hand-off.
    ms += Math.max(0, trip.enteredAt - Math.max(trip.sentAt, previousReturn)) + Math.max(0, trip.resolvedAt - trip.returnedAt);
    previousReturn = trip.returnedAt;
  }
  return ms;
}

/**
 * A worker's table: its tasks' stages, the rest of its tasks' time, garbage collection and hand-off.
 *
 * @param trips - the tasks this worker ran in one phase.
 * @param profiles - each trip's profile, parsed, or `null`.
 */
export function workerTable(trips: readonly TaskTrip[], profiles: ReadonlyMap<TaskTrip, TimedProfile | null>): { rows: StageRow[]; source: TableSource } {
  const tallies = new Map<string, Tally>();
  let source: TableSource = 'profile';
  for (const trip of trips) {
    const timed = sampledWithin(profiles.get(trip) ?? null, trip.startedAt, trip.finishedAt);
    const spans = [...trip.stages].sort((a, b) => a.start - b.start);
    for (const span of spans) add(tallies, stageLabel(trip.task, span.stage), 0, 1);
    add(tallies, 'task (other)', 0, 1);
    if (!timed) {
      source = 'timers';
      let staged = 0;
      for (const span of spans) {
        add(tallies, stageLabel(trip.task, span.stage), span.end - span.start, 0);
        staged += span.end - span.start;
      }
      add(tallies, 'task (other)', Math.max(0, trip.finishedAt - trip.startedAt - staged), 0);
      continue;
    }
    const gc = nodesNamed(timed.profile, '(garbage collector)');
    const idle = nodesNamed(timed.profile, '(idle)');
    let cursor = 0;
    let inGc = false;
    for (const sample of samplesOf(timed)) {
      if (sample.at < trip.startedAt || sample.at >= trip.finishedAt || idle.has(sample.node)) continue;
      if (gc.has(sample.node)) {
        add(tallies, 'GC', sample.ms, inGc ? 0 : 1);
        inGc = true;
        continue;
      }
      inGc = false;
      while (cursor < spans.length && (spans[cursor] as (typeof spans)[number]).end <= sample.at) cursor++;
      const span = spans[cursor];
      add(tallies, span && span.start <= sample.at ? stageLabel(trip.task, span.stage) : 'task (other)', sample.ms, 0);
    }
  }
  add(tallies, 'hand-off', handOffMs(trips), trips.length);
  return { rows: toRows(tallies), source };
}

/**
 * The hook thread's parts of a compaction, by the module of the innermost frame that names one: the
 * engine's own modules, and the pool's (piscina and the message port) for hand-off.
 */
const HOOK_MODULES: readonly { stage: string; test: RegExp }[] = [
  { stage: 'units', test: /\/session\/(?:message-view|message-unit|message-bounds|content-key|session-export)\.[jt]s$/ },
  { stage: 'sections', test: /\/compaction\/section-assembly\.[jt]s$/ },
  { stage: 'engine', test: /\/compaction\/(?:extraction-engine|batch-split|placed-analyses|analysis-cache|conversation-window)\.[jt]s$/ },
  { stage: 'hand-off', test: /\/piscina\/|^node:internal\/(?:worker|per_context\/messageport)|\/pool\/worker-pool\.[jt]s$/ },
];

/** The hook thread during one compaction: its profile (or `null`) and its span, in epoch milliseconds. */
export interface HookRun {
  profile: TimedProfile | null;
  start: number;
  end: number;
  /** The engine's own timer of its hook-thread work (`timings.hookThread`), for runs without a profile. */
  hookThreadMs: number;
  /** Messages the engine converted. */
  units: number;
}

/**
 * The hook thread's table: converting messages (units), the engine's batching and bookkeeping, the
 * boundary sections, hand-off to and from the pool, GC and everything else it ran meanwhile.
 *
 * @param runs - the hook thread's compactions of one phase.
 * @param trips - the tasks of those compactions.
 */
export function hookTable(runs: readonly HookRun[], trips: readonly TaskTrip[]): { rows: StageRow[]; source: TableSource } {
  const tallies = new Map<string, Tally>();
  let source: TableSource = 'profile';
  for (const run of runs) {
    add(tallies, 'engine', 0, 1);
    if (!sampledWithin(run.profile, run.start, run.end)) {
      source = 'timers';
      const dispatch = trips.filter((trip) => trip.sentAt >= run.start && trip.sentAt <= run.end).reduce((sum, trip) => sum + (trip.dispatchedAt - trip.sentAt), 0);
      add(tallies, 'engine', run.hookThreadMs, 0);
      add(tallies, 'hand-off', dispatch, 0);
      continue;
    }
    // Without a profile the engine's timer holds these two.
    add(tallies, 'units', 0, run.units);
    add(tallies, 'sections', 0, 1);
    const { profile } = run.profile as TimedProfile;
    const parents = parentsOf(profile);
    const byId = new Map(profile.nodes.map((node) => [node.id, node]));
    const stageOf = new Map<number, string | null>();
    const classify = (id: number): string | null => {
      const known = stageOf.get(id);
      if (known !== undefined) return known;
      const node = byId.get(id);
      const name = node?.callFrame.functionName ?? '';
      let stage: string | null;
      if (name === '(idle)' || name === '(root)') stage = null;
      else if (name === '(garbage collector)') stage = 'GC';
      else {
        const url = node?.callFrame.url ?? '';
        const own = HOOK_MODULES.find((entry) => entry.test.test(url))?.stage;
        const parent = parents.get(id);
        stage = own ?? (parent === undefined ? 'other' : (classify(parent) ?? 'other'));
      }
      stageOf.set(id, stage);
      return stage;
    };
    let inGc = false;
    for (const sample of samplesOf(run.profile as TimedProfile)) {
      if (sample.at < run.start || sample.at >= run.end) continue;
      const stage = classify(sample.node);
      if (stage === null) continue;
      add(tallies, stage, sample.ms, stage === 'GC' ? (inGc ? 0 : 1) : stage === 'other' ? null : 0);
      inGc = stage === 'GC';
    }
  }
  add(tallies, 'hand-off', 0, trips.length);
  return { rows: toRows(tallies), source };
}
