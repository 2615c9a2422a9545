/**
 * `npm run profile`'s measurement: the compacting hook's extraction (the
 * pool, the per-message and final passes, the budget) on one session, cold
 * and then after the session grew, with a CPU profile of the hook thread and
 * of every worker, and a table of stages per thread.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createWorkerPool } from '../main/pool/worker-pool.js';
import { createExtractionEngine, type Extraction } from '../main/compaction/extraction-engine.js';
import { compactionExtractionSettings } from '../main/compaction/compaction.js';
import { DEFAULT_PLUGIN_OPTIONS } from '../main/options/plugin-options.js';
import { createThreadProfiler, epochNow, mergeProfiles, profileWithin, type CpuProfile, type SpannedProfile, type ThreadProfiler, type TimedProfile } from './cpu-profile.js';
import { recordingRunner, type TaskTrip } from './profiled-runner.js';
import { SAMPLING_INTERVAL_US } from './profiled-worker.js';
import { hookTable, workerTable, type HookRun, type StageRow, type TableSource } from './stage-table.js';
import { topFunctions, type FunctionTime } from './top-functions.js';
import { flameGraphSvg } from './flame-svg.js';

/** What to profile. */
export interface ProfileOptions {
  /** The session of the cold compaction (a session export or a message list). */
  session: unknown;
  /** The same session grown, compacted next by the same engine (its per-message cache warm). */
  grown: unknown;
  /** Folder the `.cpuprofile` files are written to (created when missing). */
  outDir: string;
  /** Cold and incremental compactions each run this many times, each pair with a new engine; tables and files hold them all. */
  runs: number;
  /** Root the session's paths are relative to, as the hook's worktree. */
  projectRoot: string | null;
  /** Worker threads of the pool; the pool's default when absent. */
  threads?: number;
  /** Also write a flame graph (`<name>.svg`) next to each `.cpuprofile`. */
  svg?: boolean;
  /** URL of the profiled worker's module, built elsewhere (a bundle); the one beside this module when absent. */
  workerFile?: string;
}

/** One thread of one phase. */
export interface ThreadReport {
  /** `hook` or `worker N` (N from 1, in the order the threads were started). */
  thread: string;
  source: TableSource;
  rows: StageRow[];
  top: FunctionTime[];
  /** The `.cpuprofile` written for this thread, `null` without a profile. */
  file: string | null;
  /** Its flame graph and the boxes it draws, `null` when not asked for or without a profile. */
  svg: { file: string; frames: number } | null;
}

/** The cold or the incremental compaction. */
export interface PhaseReport {
  phase: 'cold' | 'incremental';
  /** The engine's own figures of its last run: messages, cached, batches, characters read. */
  stats: Extraction['stats'];
  /** Milliseconds from the call to the context, per run. */
  totalMs: number[];
  threads: ThreadReport[];
}

/** Everything a run of the command found. */
export interface ProfileReport {
  /** The runtime that ran it. */
  runtime: 'node' | 'bun';
  /** Whether CPU profiles could be taken, and why not. */
  profiles: { available: boolean; reason: string | null };
  outDir: string;
  runs: number;
  threads: number;
  phases: PhaseReport[];
}

type Phase = PhaseReport['phase'];

/** The profiled worker next to this module: `.ts` in the sources, `.js` when compiled. */
function profiledWorkerFile(): string {
  const extension = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  return new URL(`./profiled-worker${extension}`, import.meta.url).href;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A worker's task profile parsed; `null` when it has none or it is unreadable. */
function parseTrip(trip: TaskTrip): TimedProfile | null {
  if (trip.profile === null) return null;
  try {
    return { profile: JSON.parse(trip.profile) as CpuProfile, offsetMs: trip.offsetMs };
  } catch {
    return null;
  }
}

/**
 * The thread's profiles merged into `<name>.cpuprofile`, whole, and when asked drawn in `<name>.svg`
 * under `svgTitle`, their spans alone.
 */
async function writeProfile(outDir: string, name: string, profiles: readonly SpannedProfile[], svgTitle: string | null): Promise<{ file: string | null; svg: ThreadReport['svg'] }> {
  if (profiles.length === 0) return { file: null, svg: null };
  const file = join(outDir, `${name}.cpuprofile`);
  await writeFile(file, JSON.stringify(mergeProfiles(profiles.map((entry) => entry.timed.profile))));
  if (svgTitle === null) return { file, svg: null };
  const svg = join(outDir, `${name}.svg`);
  const graph = flameGraphSvg(mergeProfiles(profiles.map(profileWithin)), svgTitle);
  await writeFile(svg, graph.svg);
  return { file, svg: { file: svg, frames: graph.frames } };
}

/**
 * Runs the compactions and writes the profiles.
 *
 * @param options - the session, its grown copy, where to write, how many runs.
 * @param progress - told of each step, for a long run.
 */
export async function runProfile(options: ProfileOptions, progress: (text: string) => void = () => undefined): Promise<ProfileReport> {
  let hookProfiler: ThreadProfiler | null = null;
  let reason: string | null = null;
  try {
    hookProfiler = await createThreadProfiler(SAMPLING_INTERVAL_US);
  } catch (error) {
    reason = messageOf(error);
  }
  await mkdir(options.outDir, { recursive: true });
  const pool = createWorkerPool(options.threads === undefined ? {} : { threads: options.threads }, options.workerFile ?? profiledWorkerFile());
  const hookRuns = new Map<Phase, HookRun[]>([['cold', []], ['incremental', []]]);
  const trips = new Map<Phase, TaskTrip[]>([['cold', []], ['incremental', []]]);
  const stats = new Map<Phase, Extraction['stats']>();
  const totals = new Map<Phase, number[]>([['cold', []], ['incremental', []]]);
  try {
    const ready = await pool.ready;
    if (!ready.ok) throw new Error(`the worker pool did not start: ${ready.error.message}`);
    const runner = recordingRunner(pool);
    const settings = compactionExtractionSettings(DEFAULT_PLUGIN_OPTIONS, null);
    for (let run = 1; run <= options.runs; run++) {
      const engine = createExtractionEngine(runner, { projectRoot: options.projectRoot });
      for (const [phase, session] of [['cold', options.session], ['incremental', options.grown]] as const) {
        progress(`run ${run} of ${options.runs}: ${phase} compaction …`);
        await hookProfiler?.start();
        const start = epochNow();
        const result = await engine.extract(session, { settings });
        const end = epochNow();
        const profile = hookProfiler ? await hookProfiler.stop() : null;
        if (!result.ok) throw new Error(`the ${phase} extraction failed (${result.error.code}): ${result.error.message}`);
        hookRuns.get(phase)?.push({ profile, start, end, hookThreadMs: result.value.timings['hookThread'] ?? 0, units: result.value.stats.units - result.value.stats.cachedUnits });
        trips.get(phase)?.push(...runner.take());
        stats.set(phase, result.value.stats);
        totals.get(phase)?.push(result.value.timings['total'] ?? end - start);
      }
    }
  } finally {
    await pool.destroy();
  }

  progress('writing profiles …');
  const threadIds = [...new Set([...trips.values()].flat().map((trip) => trip.threadId))].sort((a, b) => a - b);
  const workerProblem = [...trips.values()].flat().find((trip) => trip.profileError !== undefined)?.profileError;
  if (reason === null && workerProblem !== undefined) reason = `in a worker: ${workerProblem}`;
  const runtime = typeof (globalThis as { Bun?: unknown }).Bun !== 'undefined' ? 'bun' : 'node';
  const phases: PhaseReport[] = [];
  for (const phase of ['cold', 'incremental'] as const) {
    const runs = hookRuns.get(phase) ?? [];
    const phaseTrips = trips.get(phase) ?? [];
    const hookProfiles = runs.flatMap((run) => (run.profile ? [{ timed: run.profile, start: run.start, end: run.end }] : []));
    const hook = hookTable(runs, phaseTrips);
    const titled = (thread: string): string | null => (options.svg ? `${thread} · ${phase} compaction${options.runs > 1 ? ` (${options.runs} runs)` : ''}` : null);
    const threads: ThreadReport[] = [
      {
        thread: 'hook',
        ...hook,
        top: topFunctions(hookProfiles),
        ...(await writeProfile(options.outDir, `${phase}-hook`, hookProfiles, titled('hook thread'))),
      },
    ];
    for (const [index, id] of threadIds.entries()) {
      const own = phaseTrips.filter((trip) => trip.threadId === id);
      if (own.length === 0) continue;
      const parsed = new Map(own.map((trip) => [trip, parseTrip(trip)]));
      const table = workerTable(own, parsed);
      const timed = own.flatMap((trip) => {
        const profile = parsed.get(trip);
        return profile ? [{ timed: profile, start: trip.startedAt, end: trip.finishedAt }] : [];
      });
      threads.push({
        thread: `worker ${index + 1}`,
        ...table,
        top: topFunctions(timed),
        ...(await writeProfile(options.outDir, `${phase}-worker-${index + 1}`, timed, titled(`worker ${index + 1}`))),
      });
    }
    const last = stats.get(phase);
    if (last) phases.push({ phase, stats: last, totalMs: totals.get(phase) ?? [], threads });
  }
  return { runtime, profiles: { available: reason === null, reason }, outDir: options.outDir, runs: options.runs, threads: pool.options.threads, phases };
}
