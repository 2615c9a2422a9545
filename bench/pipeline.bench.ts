/**
 * The whole extraction at one session size: pooled, inline, naive and
 * incremental, the hook thread's event-loop delay, and the process's peak RSS;
 * and the pooled extraction over several sessions of one size.
 */
import { performance } from 'node:perf_hooks';
import { Bench } from 'tinybench';
import { createExtractionEngine, type Extraction } from '../src/main/compaction/extraction-engine.js';
import type { ExtractionSettings } from '../src/main/compaction/extraction-settings.js';
import { WHOLE_CONVERSATION } from '../src/main/compaction/conversation-window.js';
import type { TaskRunner } from '../src/main/pool/task-runner.js';
import type { SessionExport } from '../src/core/session-types.js';
import { growSession } from '../src/synth/session-generator.js';
import { naiveExtraction } from './naive-extraction.js';
import { maxLoopDelay } from './loop-delay.js';
import { median } from './real-host-probe.js';

/** Figures for one size, in the shape `npm run bench -- --json` prints. */
export interface SizeFigures {
  /** Messages in the session, and how many of them the window reads (see conversation-window.ts). */
  messages: number;
  window_messages: number;
  pool_p50_ms: number;
  /** Pooled with no window: every message read, as before the window existed. */
  whole_pool_p50_ms: number;
  pool_p99_ms: number;
  inline_p50_ms: number;
  naive_p50_ms: number | null;
  incremental_p50_ms: number;
  loop_delay_max_ms_pool: number;
  loop_delay_max_ms_inline: number;
  peak_rss_mb: number;
  /** Peak RSS during the pooled runs minus RSS before them: what the work itself added. */
  rss_growth_mb: number;
}

/** How many times each variant runs at one size. */
export interface Iterations {
  pool: number;
  inline: number;
  naive: number;
  incremental: number;
}

async function mustExtract(runner: TaskRunner, session: unknown, settings: Partial<ExtractionSettings> = {}): Promise<Extraction> {
  const result = await createExtractionEngine(runner, settings).extract(session);
  if (!result.ok) throw new Error(`extraction failed: ${result.error.code} ${result.error.message}`);
  return result.value;
}

/** Runs `fn` `iterations` times under tinybench and returns its table row and percentiles. */
async function measure(
  name: string,
  fn: () => unknown,
  iterations: number,
): Promise<{ p50: number; p99: number; row: Record<string, unknown> }> {
  const bench = new Bench({ iterations, time: 0, warmup: false });
  bench.add(name, fn as () => Promise<void>);
  await bench.run();
  const result = bench.getTask(name)?.result;
  if (!result || result.state !== 'completed') throw new Error(`benchmark ${name} did not complete: ${result?.state}`);
  const row = bench.table()[0] ?? {};
  return { p50: result.latency.p50 ?? Number.NaN, p99: result.latency.p99 ?? Number.NaN, row: row as Record<string, unknown> };
}

/**
 * @param label - the size's name in tables.
 * @param session - the generated session of that size.
 * @param pool - the warm worker pool.
 * @param inline - the inline runner.
 * @param iterations - how many runs of each variant.
 */
export async function benchPipeline(
  label: string,
  session: SessionExport,
  pool: TaskRunner,
  inline: TaskRunner,
  iterations: Iterations,
): Promise<{ figures: SizeFigures; rows: Record<string, unknown>[] }> {
  // Workers are threads of this process: its RSS while only the pool works bounds theirs.
  const rssBefore = process.memoryUsage.rss();
  let peakRss = rssBefore;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
  }, 10);
  const grown = Array.from({ length: iterations.incremental }, (_, index) => growSession(session, 100 * 1024, 1_000 + index));
  const incrementalEngine = createExtractionEngine(pool);
  const primed = await incrementalEngine.extract(session);
  if (!primed.ok) throw new Error(`priming failed: ${primed.error.message}`);
  let nextGrown = 0;

  // Pooled work first, before inline and naive runs leave the hook thread's heap full of garbage.
  const pooled = await measure(`${label} pooled`, () => mustExtract(pool, session), iterations.pool);
  const whole = await measure(`${label} pooled, whole session`, () => mustExtract(pool, session, { window: WHOLE_CONVERSATION }), Math.max(1, Math.ceil(iterations.pool / 3)));
  const incremental = await measure(
    `${label} incremental +100KB`,
    async () => {
      const result = await incrementalEngine.extract(grown[nextGrown++ % grown.length]);
      if (!result.ok) throw new Error(result.error.message);
    },
    iterations.incremental,
  );
  const loopPool = await maxLoopDelay(() => mustExtract(pool, session), Math.min(3, iterations.pool));
  clearInterval(sampler);
  const pooledPeakRss = peakRss;
  const inlined = await measure(`${label} inline`, () => mustExtract(inline, session), iterations.inline);
  const naive = iterations.naive > 0 ? await measure(`${label} naive`, () => void naiveExtraction(session), iterations.naive) : null;
  const loopInline = await maxLoopDelay(() => mustExtract(inline, session));
  return {
    rows: [pooled.row, whole.row, inlined.row, incremental.row, ...(naive ? [naive.row] : [])],
    figures: {
      messages: session.messages.length,
      window_messages: primed.value.stats.units,
      pool_p50_ms: pooled.p50,
      whole_pool_p50_ms: whole.p50,
      pool_p99_ms: pooled.p99,
      inline_p50_ms: inlined.p50,
      naive_p50_ms: naive?.p50 ?? null,
      incremental_p50_ms: incremental.p50,
      loop_delay_max_ms_pool: loopPool,
      loop_delay_max_ms_inline: loopInline,
      peak_rss_mb: Math.round(pooledPeakRss / 2 ** 20),
      rss_growth_mb: Math.round((pooledPeakRss - rssBefore) / 2 ** 20),
    },
  };
}

/** The pooled p50 over several generated sessions of one size: how much the figure of one session owes to its content. */
export interface SessionsFigures {
  /** p50 of every run over all the sessions. */
  sessions_pool_p50_ms: number;
  /** The lowest and highest of the sessions' own p50s. */
  sessions_pool_p50_min_ms: number;
  sessions_pool_p50_max_ms: number;
  sessions: number;
}

/**
 * The pooled extraction over one generated session per seed, `runs` times each, the sessions taken in
 * turn so that no session's run follows its own.
 *
 * @param seeds - the generator's seeds, one session each.
 * @param generate - the session of one seed.
 * @param pool - the warm worker pool.
 * @param runs - runs of each session.
 */
export async function benchSessions(
  seeds: readonly number[],
  generate: (seed: number) => SessionExport,
  pool: TaskRunner,
  runs: number,
): Promise<SessionsFigures> {
  const sessions = seeds.map(generate);
  const times: number[][] = sessions.map(() => []);
  for (let round = 0; round < runs; round++) {
    for (const [index, session] of sessions.entries()) {
      const started = performance.now();
      await mustExtract(pool, session);
      times[index]?.push(performance.now() - started);
    }
  }
  const own = times.map(median);
  return {
    sessions_pool_p50_ms: median(times.flat()),
    sessions_pool_p50_min_ms: Math.min(...own),
    sessions_pool_p50_max_ms: Math.max(...own),
    sessions: sessions.length,
  };
}
