/**
 * One `npm run eval` run: the engine the compacting hook uses, with the
 * settings it passes, over every session of a corpus; the seed and tail
 * baselines over the same sessions; everything scored the same way.
 */
import { performance } from 'node:perf_hooks';
import { withDeadline } from '../main/shared/deadline.js';
import { createExtractionEngine, type Extraction } from '../main/compaction/extraction-engine.js';
import { compactionExtractionSettings } from '../main/compaction/compaction.js';
import { DEFAULT_PLUGIN_OPTIONS, type PluginOptions } from '../main/options/plugin-options.js';
import type { TaskRunner } from '../main/pool/task-runner.js';
import { countTokens } from '../core/text/tokens/tokens.js';
import { seedBaseline, tailBaseline } from './baselines.js';
import type { CorpusEntry } from './corpus.js';
import { pooledMetrics, type Metrics } from './pooled-metrics.js';
import { scoreSession, type ScoredOutput, type SessionScore } from './score.js';
import { exportHead } from '../main/session/session-export.js';

/** The object `npm run eval -- --json` prints. */
export interface EvalReport {
  sessions: number;
  /** Sessions the engine ran on with its context within budget. */
  ok: number;
  metrics: Metrics;
  baselines: { seed: Metrics; tail: Metrics };
  /** Mean tokens of the engine's preservation context over the sessions it ran on. */
  context_tokens_mean: number;
  /** Median wall time of one extraction, in milliseconds. */
  extract_ms_p50: number;
}

/** One session's results. */
export interface SessionRun {
  name: string;
  engine: SessionScore;
  seed: SessionScore;
  tail: SessionScore;
  /** Wall time of the engine's extraction; `null` when it did not finish. */
  ms: number | null;
  /** Tokens of the engine's context, when it ran. */
  tokens: number | null;
}

/** Options of {@link runEval}. */
export interface EvalOptions {
  /** The hook's options that shape extraction. @default the plugin's defaults */
  compaction: Pick<PluginOptions, 'compactionTokens' | 'compactionStrategy'>;
  /** Longest wait for one session's extraction; past it the session counts as failed. @default 30000 */
  sessionTimeoutMs: number;
  /** Told of each session as it starts. */
  onSession?: (name: string, index: number, total: number) => void;
}

const DEFAULT_EVAL_OPTIONS: Readonly<EvalOptions> = Object.freeze({
  compaction: { compactionTokens: DEFAULT_PLUGIN_OPTIONS.compactionTokens, compactionStrategy: DEFAULT_PLUGIN_OPTIONS.compactionStrategy },
  sessionTimeoutMs: 30_000,
});

/** The session's directory from its export, as the hook's worktree; `null` when it has none. */
export function projectRootOf(session: unknown): string | null {
  return exportHead(session).directory;
}

/** Arrays the extraction may carry besides observations as a list of next steps. */
function nextItems(extraction: Extraction): string[] {
  const items: string[] = [];
  for (const key of ['next', 'nextSteps', 'todos']) {
    const value = (extraction as unknown as Record<string, unknown>)[key];
    if (!Array.isArray(value)) continue;
    for (const item of value) {
      if (typeof item === 'string') items.push(item);
      else if (item && typeof (item as { text?: unknown }).text === 'string') items.push((item as { text: string }).text);
    }
  }
  return items;
}

/**
 * What the scorer reads of an extraction; the context's tokens are counted again here, not taken on trust.
 *
 * @param extraction - the engine's result.
 */
export function scoredExtraction(extraction: Extraction): ScoredOutput {
  return {
    decisions: extraction.decisions.map((decision) => ({ text: decision.text, context: decision.context, category: decision.category })),
    files: extraction.files,
    observations: extraction.observations.map((observation) => ({ type: observation.type, text: observation.text })),
    concepts: extraction.concepts.map((concept) => concept.name),
    next: nextItems(extraction),
    context: { text: extraction.context.text, tokens: Math.max(extraction.context.tokens, countTokens(extraction.context.text)), budget: extraction.context.budget },
  };
}

function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

async function runEngine(runner: TaskRunner, entry: CorpusEntry, options: EvalOptions): Promise<{ output: ScoredOutput | null; reason?: string; ms: number | null }> {
  if (!entry.session.ok) return { output: null, reason: entry.session.reason, ms: null };
  const engine = createExtractionEngine(runner, { projectRoot: projectRootOf(entry.session.value) });
  const controller = new AbortController();
  const started = performance.now();
  const result = await withDeadline(
    engine.extract(entry.session.value, { signal: controller.signal, settings: compactionExtractionSettings(options.compaction, null) }),
    options.sessionTimeoutMs,
    controller,
  );
  const ms = performance.now() - started;
  if (!result.done) return { output: null, reason: result.reason === 'timeout' ? `no result within ${options.sessionTimeoutMs} ms` : `extraction threw: ${String((result.error as Error)?.message ?? result.error)}`, ms: null };
  if (!result.value.ok) return { output: null, reason: `extraction failed (${result.value.error.code}): ${result.value.error.message}`, ms: null };
  return { output: scoredExtraction(result.value.value), ms };
}

/**
 * Runs and scores the engine and both baselines on every session of a corpus, one session at a time.
 *
 * @param entries - the corpus, from `loadCorpus`.
 * @param runner - the worker pool the hook uses.
 * @param options - see {@link EvalOptions}.
 */
export async function runEval(entries: readonly CorpusEntry[], runner: TaskRunner, options: Partial<EvalOptions> = {}): Promise<{ report: EvalReport; runs: SessionRun[] }> {
  const settings: EvalOptions = { ...DEFAULT_EVAL_OPTIONS, ...options };
  const runs: SessionRun[] = [];
  for (const [index, entry] of entries.entries()) {
    settings.onSession?.(entry.name, index, entries.length);
    const engine = await runEngine(runner, entry, settings);
    const session = entry.session.ok ? entry.session.value : null;
    runs.push({
      name: entry.name,
      engine: scoreSession(entry.truth, engine.output, engine.reason),
      seed: scoreSession(entry.truth, session === null ? null : seedBaseline(session, projectRootOf(session)), 'session unreadable'),
      tail: scoreSession(entry.truth, session === null ? null : tailBaseline(session), 'session unreadable'),
      ms: engine.ms,
      tokens: engine.output?.context.tokens ?? null,
    });
  }
  const tokens = runs.filter((run) => run.engine.ok && run.tokens !== null).map((run) => run.tokens as number);
  const report: EvalReport = {
    sessions: runs.length,
    ok: runs.filter((run) => run.engine.ok).length,
    metrics: pooledMetrics(runs.map((run) => run.engine)),
    baselines: { seed: pooledMetrics(runs.map((run) => run.seed)), tail: pooledMetrics(runs.map((run) => run.tail)) },
    context_tokens_mean: tokens.length > 0 ? tokens.reduce((sum, value) => sum + value, 0) / tokens.length : 0,
    extract_ms_p50: median(runs.flatMap((run) => (run.ms === null ? [] : [run.ms]))),
  };
  return { report, runs };
}
