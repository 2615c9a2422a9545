/**
 * The extraction engine on the hook thread: splits a conversation into
 * batches of messages for the pool, reuses cached per-message results,
 * assembles the boundary sections and asks for the final pass.
 *
 * The hook thread only reads fields, slices strings and moves data; every
 * parse, scan and token count happens in a task.
 */
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type {
  AnalysisSettings,
  AnalysisUnit,
  FinalizeOutput,
  FinalizeSettings,
  StageTimings,
  TaskResult,
  UnitAnalysis,
} from '../../workers/protocol.js';
import { atOrder, createAnalysisCache, type AnalysisCache } from './analysis-cache.js';
import { assembleBoundarySections } from './section-assembly.js';
import { messagesOf, messageToUnit } from './session-units.js';
import { windowStart, type WindowLimits } from './conversation-window.js';
import type { TaskRunner } from '../pool/task-runner.js';
import { DEFAULT_EXTRACTION_SETTINGS, type ExtractionSettings } from './extraction-settings.js';

/** What extraction found, with the preservation context ready to inject. */
export interface Extraction extends Omit<FinalizeOutput, 'timings'> {
  sectionKind: 'h2' | 'fallback' | 'empty';
  sections: string[];
  /** `beforeWindow`: messages older than the window, not read (see conversation-window.ts). */
  stats: { units: number; cachedUnits: number; batches: number; inputChars: number; redactions: number; beforeWindow: number };
  /** Milliseconds per stage (summed across workers) plus `hookThread` and `total`. */
  timings: StageTimings;
}

/** Runs extractions through a task runner and keeps a per-message cache. */
export interface ExtractionEngine {
  /**
   * @param input - a message list, a session export (`{ info, messages }`) or plain markdown.
   * @param controls - `signal` aborts every pending task; `settings` override the engine's for this call.
   */
  extract(
    input: unknown,
    controls?: { signal?: AbortSignal; settings?: Partial<ExtractionSettings> },
  ): Promise<TaskResult<Extraction>>;
  readonly cache: AnalysisCache;
  /** The window this engine reads, so a reader can stop where the engine would start. */
  readonly window: WindowLimits;
}

function addTimings(into: StageTimings, from: StageTimings): void {
  for (const [stage, ms] of Object.entries(from)) into[stage] = (into[stage] ?? 0) + ms;
}

/** The most recent `max` items of a per-message list, in conversation order. */
function recent<T>(analyses: readonly UnitAnalysis[], pick: (analysis: UnitAnalysis) => readonly T[], max: number): T[] {
  const chunks: (readonly T[])[] = [];
  let count = 0;
  for (let index = analyses.length - 1; index >= 0 && count < max; index--) {
    const items = pick(analyses[index] as UnitAnalysis);
    chunks.push(items);
    count += items.length;
  }
  const flat = chunks.reverse().flat();
  return flat.slice(Math.max(0, flat.length - max));
}

/** The hook thread hands itself back at least this often while preparing batches. */
const SLICE_MS = 4;

/** Characters from which the last batch is worth splitting: below it, a second hand-off costs more than it saves. */
const MIN_SPLIT_CHARS = 16 * 1024;

function toolOutputChars(unit: AnalysisUnit): number {
  return unit.tools.reduce((sum, tool) => sum + tool.output.length, 0);
}

function unitChars(unit: AnalysisUnit): number {
  return unit.text.length + toolOutputChars(unit);
}

/**
 * A unit's analysis time in characters of message text. Fitted over the new messages of
 * 30 grown 10 MB sessions (1,260 messages, least squares): a character of text costs 0.26 µs
 * under Node and 0.32 µs under Bun, one of tool output 0.03 µs in both, a message about 0.1 ms
 * whatever it holds. Halves of equal characters left one worker 2.5 ms longer than the other on average.
 */
function unitCost(unit: AnalysisUnit): number {
  return unit.text.length + toolOutputChars(unit) / 10 + 300;
}

/** The last batch, in two halves of about equal analysis time when it is large enough to split. */
function splitTail<T extends { unit: AnalysisUnit }>(batch: T[], chars: number): T[][] {
  if (batch.length === 0) return [];
  if (batch.length < 2 || chars < MIN_SPLIT_CHARS) return [batch];
  const costs = batch.map((item) => unitCost(item.unit));
  const total = costs.reduce((sum, cost) => sum + cost, 0);
  let taken = 0;
  let cut = 0;
  while (cut < batch.length - 1 && taken + (costs[cut] as number) / 2 < total / 2) taken += costs[cut++] as number;
  return [batch.slice(0, Math.max(1, cut)), batch.slice(Math.max(1, cut))];
}

function messageListOf(input: unknown): unknown[] | null {
  if (typeof input === 'string') return [{ info: { role: 'document' }, parts: [{ type: 'text', text: input }] }];
  return messagesOf(input);
}

/**
 * @param runner - the pool, or the inline runner in tests and benchmarks.
 * @param baseSettings - engine-wide settings; see {@link DEFAULT_EXTRACTION_SETTINGS}.
 * @param cache - the per-message cache; a new bounded one by default.
 */
export function createExtractionEngine(
  runner: TaskRunner,
  baseSettings: Partial<ExtractionSettings> = {},
  cache: AnalysisCache = createAnalysisCache(),
): ExtractionEngine {
  async function extract(
    input: unknown,
    controls: { signal?: AbortSignal; settings?: Partial<ExtractionSettings> } = {},
  ): Promise<TaskResult<Extraction>> {
    const started = performance.now();
    const settings: ExtractionSettings = { ...DEFAULT_EXTRACTION_SETTINGS, ...baseSettings, ...controls.settings };
    let hookThreadMs = 0;
    let sliceStart = performance.now();
    const messages = messageListOf(input);
    if (!messages) {
      return { ok: false, error: { code: 'INVALID_INPUT', message: 'expected a message list, a session export or markdown text' } };
    }
    const analysisSettings: AnalysisSettings = {
      projectRoot: settings.projectRoot,
      maxSectionChars: settings.maxSectionChars,
      maxDecisionsPerUnit: settings.maxDecisionsPerUnit,
    };
    const analyses: (UnitAnalysis | undefined)[] = [];
    let unitCount = 0;
    const timings: StageTimings = {};
    const pending: Promise<TaskResult<unknown>>[] = [];
    let batch: { unit: AnalysisUnit; slot: number }[] = [];
    let batchChars = 0;
    let cachedUnits = 0;
    let inputChars = 0;
    /** Keys sent for analysis in this call, by slot: a message listed again (a host that repeats an entry) waits for the first. */
    const sent = new Map<string, number>();
    const repeats: { slot: number; of: number; order: number }[] = [];
    const dispatch = async (work: { unit: AnalysisUnit; slot: number }[]): Promise<TaskResult<unknown>> => {
      const result = await runner.run('analyzeUnits', { units: work.map((item) => item.unit), settings: analysisSettings }, { signal: controls.signal });
      if (!result.ok) return result;
      addTimings(timings, result.value.timings);
      result.value.analyses.forEach((analysis, index) => {
        const slot = work[index]?.slot ?? -1;
        analyses[slot] = analysis;
        if (analysis.key !== null) cache.set(analysis.key, analysis);
      });
      return { ok: true, value: null };
    };
    // Only the window is read: its cost follows what is new, not the session's age.
    const first = windowStart(messages, settings.window);
    for (let order = first; order < messages.length; order++) {
      // Converted one at a time inside the sliced loop: a 10 MB session is never read in one go.
      if (performance.now() - sliceStart > SLICE_MS) {
        hookThreadMs += performance.now() - sliceStart;
        await nextTurn();
        sliceStart = performance.now();
      }
      const unit = messageToUnit(messages[order], order, (key) => cache.has(key) || sent.has(key));
      if (!unit) continue;
      const slot = unitCount++;
      const earlier = unit.key === null ? undefined : sent.get(unit.key);
      if (earlier !== undefined) {
        repeats.push({ slot, of: earlier, order: unit.order });
        cachedUnits++;
        continue;
      }
      const cached = unit.key === null ? undefined : cache.get(unit.key);
      inputChars += cached ? cached.chars : unit.text.length;
      if (cached) {
        // A grown session keeps its earlier messages where they were: the cached analysis serves as it is.
        analyses[slot] = atOrder(cached, unit.order);
        cachedUnits++;
        continue;
      }
      if (unit.key !== null) sent.set(unit.key, slot);
      batch.push({ unit, slot });
      batchChars += unitChars(unit);
      if (batchChars >= settings.batchChars) {
        pending.push(dispatch(batch));
        batch = [];
        batchChars = 0;
        hookThreadMs += performance.now() - sliceStart;
        // Hand the thread back between batches: the host keeps serving while we split.
        await nextTurn();
        sliceStart = performance.now();
      }
    }
    // The last batch is what a warm compaction waits on (its new messages): in two halves it keeps two workers busy.
    for (const half of splitTail(batch, batchChars)) pending.push(dispatch(half));
    hookThreadMs += performance.now() - sliceStart;
    const failure = (await Promise.all(pending)).find((result) => !result.ok);
    if (failure && !failure.ok) return failure;
    for (const { slot, of, order } of repeats) {
      const analysis = analyses[of];
      if (!analysis) continue;
      analyses[slot] = atOrder(analysis, order);
      inputChars += analysis.chars;
    }

    sliceStart = performance.now();
    const ordered = analyses.filter((analysis): analysis is UnitAnalysis => analysis !== undefined);
    const assembled = assembleBoundarySections(ordered, settings.maxSectionChars);
    const finalSettings: FinalizeSettings = {
      encoding: settings.encoding,
      contextTokenBudget: settings.contextTokenBudget,
      maxConcepts: settings.maxConcepts,
      maxDecisions: settings.maxDecisions,
      maxFiles: settings.maxFiles,
      strategy: settings.strategy,
    };
    const finalInput = {
      sections: assembled.sections,
      sectionKind: assembled.kind,
      decisions: recent(ordered, (analysis) => analysis.decisions, settings.decisionWindow),
      files: recent(ordered, (analysis) => analysis.files, settings.fileWindow),
      signals: recent(ordered, (analysis) => analysis.signals, settings.signalWindow),
      notes: recent(ordered, (analysis) => analysis.notes, settings.signalWindow),
      terms: recent(ordered, (analysis) => analysis.terms, settings.fileWindow),
      latestOrder: ordered.at(-1)?.order ?? 0,
      settings: finalSettings,
    };
    hookThreadMs += performance.now() - sliceStart;
    const final = await runner.run('finalizeExtraction', finalInput, { signal: controls.signal });
    if (!final.ok) return final;
    addTimings(timings, final.value.timings);
    timings['hookThread'] = hookThreadMs;
    timings['total'] = performance.now() - started;
    return {
      ok: true,
      value: {
        ...final.value,
        sectionKind: assembled.kind,
        sections: final.value.sections,
        stats: { units: unitCount, cachedUnits, batches: pending.length, inputChars, beforeWindow: first, redactions: final.value.redactions + ordered.reduce((sum, analysis) => sum + analysis.redactions, 0) },
        timings,
      },
    };
  }
  return { extract, cache, window: baseSettings.window ?? DEFAULT_EXTRACTION_SETTINGS.window };
}
