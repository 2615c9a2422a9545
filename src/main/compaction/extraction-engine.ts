/**
 * The extraction engine on the hook thread: splits a conversation into
 * batches of messages for the pool, reuses cached per-message results,
 * assembles the boundary sections and asks for the final pass.
 *
 * The hook thread only reads fields, slices strings and moves data; every
 * parse, scan and token count happens in a task.
 */
import { performance } from 'node:perf_hooks';
import { createTimeSlicer } from '../../core/text/time-slicer.js';
import { toTaskError } from '../../core/task-error.js';
import type {
  AnalysisSettings,
  AnalysisUnit,
  FinalizeOutput,
  FinalizeSettings,
  StageTimings,
  TaskResult,
  UnitAnalysis,
} from '../../workers/protocol.js';
import type { SectionKind } from '../../core/text/sections.js';
import { createAnalysisCache, type AnalysisCache } from './analysis-cache.js';
import { recentItems, type PlacedAnalysis } from './placed-analyses.js';
import { splitTail } from './batch-split.js';
import { assembleBoundarySections } from './section-assembly.js';
import { messagesOf } from '../session/session-export.js';
import { toUnit, unitChars } from '../session/message-unit.js';
import { readWindow, type WindowLimits } from './conversation-window.js';
import type { TaskRunner } from '../pool/task-runner.js';
import { DEFAULT_EXTRACTION_SETTINGS, type ExtractionSettings } from './extraction-settings.js';

/** What extraction found, with the preservation context ready to inject. */
export interface Extraction extends Omit<FinalizeOutput, 'timings'> {
  sectionKind: SectionKind;
  sections: string[];
  /** `beforeWindow`: messages older than the window, not read (see conversation-window.ts). */
  stats: { units: number; cachedUnits: number; batches: number; inputChars: number; redactions: number; beforeWindow: number };
  /** Milliseconds per stage (summed across workers) plus `hookThread` and `total`. */
  timings: StageTimings;
}

/** Runs extractions through a task runner and keeps a per-message cache. */
export interface ExtractionEngine {
  /**
   * @param input - a message list (as the host sends it, or read: `MessageView`s), a session export
   *   (`{ info, messages }`) or plain markdown.
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

/**
 * The first of `results` to fail, as soon as it does, or `null` once all succeeded: one failed batch
 * fails the extraction, and workers that keep dying must not hold it until every other batch has
 * waited for a worker of its own. The others run on and fill the cache for the next extraction.
 */
function firstFailure(results: readonly Promise<TaskResult<unknown>>[]): Promise<TaskResult<never> | null> {
  return new Promise((resolve) => {
    let left = results.length;
    if (left === 0) resolve(null);
    for (const result of results) {
      void result.then(
        (value) => {
          if (!value.ok) resolve(value);
          else if (--left === 0) resolve(null);
        },
        (error: unknown) => resolve({ ok: false, error: toTaskError(error, 'TASK_FAILED') }),
      );
    }
  });
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
    // The hook thread hands itself back between slices while preparing batches.
    const slicer = createTimeSlicer();
    const messages = messageListOf(input);
    if (!messages) {
      return { ok: false, error: { code: 'INVALID_INPUT', message: 'expected a message list, a session export or markdown text' } };
    }
    const analysisSettings: AnalysisSettings = {
      projectRoot: settings.projectRoot,
      maxSectionChars: settings.maxSectionChars,
      maxDecisionsPerUnit: settings.maxDecisionsPerUnit,
    };
    const placed: (PlacedAnalysis | undefined)[] = [];
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
        placed[slot] = { analysis, order: analysis.order };
        if (analysis.key !== null) cache.set(analysis.key, analysis);
      });
      return { ok: true, value: null };
    };
    // Only the window is read: its cost follows what is new, not the session's age.
    const { first, views } = readWindow(messages, settings.window);
    for (const [index, view] of views.entries()) {
      // Converted one at a time inside the sliced loop: a 10 MB session is never read in one go.
      if (slicer.due) await slicer.yield();
      if (!view) continue;
      const unit = toUnit(view, first + index, (key) => cache.has(key) || sent.has(key));
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
        // Kept as it was found; its items move to this read's position when they are picked (placed-analyses.ts).
        placed[slot] = { analysis: cached, order: unit.order };
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
        // Hand the thread back between batches: the host keeps serving while we split.
        await slicer.yield();
      }
    }
    // The last batch is what a warm compaction waits on (its new messages): in two halves it keeps two workers busy.
    for (const half of splitTail(batch, batchChars)) pending.push(dispatch(half));
    slicer.pause();
    const failure = await firstFailure(pending);
    if (failure) return failure;
    for (const { slot, of, order } of repeats) {
      const analysis = placed[of]?.analysis;
      if (!analysis) continue;
      placed[slot] = { analysis, order };
      inputChars += analysis.chars;
    }

    slicer.resume();
    const ordered = placed.filter((entry): entry is PlacedAnalysis => entry !== undefined);
    // Each of the final pass's lists is a walk over the window's analyses, thousands of items at 10 MB:
    // the thread is handed back between them once a slice is spent.
    const recent = async <T extends { order?: number }>(pick: (analysis: UnitAnalysis) => readonly T[], max: number): Promise<T[]> => {
      if (slicer.due) await slicer.yield();
      return recentItems(ordered, pick, max);
    };
    const assembled = assembleBoundarySections(ordered.map((entry) => entry.analysis), settings.maxSectionChars);
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
      decisions: await recent((analysis) => analysis.decisions, settings.decisionWindow),
      files: await recent((analysis) => analysis.files, settings.fileWindow),
      signals: await recent((analysis) => analysis.signals, settings.signalWindow),
      notes: await recent((analysis) => analysis.notes, settings.signalWindow),
      terms: await recent((analysis) => analysis.terms, settings.fileWindow),
      latestOrder: ordered.at(-1)?.order ?? 0,
      settings: finalSettings,
    };
    // The copy of that input to a worker is one more step of its own.
    if (slicer.due) await slicer.yield();
    slicer.pause();
    const final = await runner.run('finalizeExtraction', finalInput, { signal: controls.signal });
    if (!final.ok) return final;
    addTimings(timings, final.value.timings);
    timings['hookThread'] = slicer.spentMs;
    timings['total'] = performance.now() - started;
    return {
      ok: true,
      value: {
        ...final.value,
        sectionKind: assembled.kind,
        sections: final.value.sections,
        stats: { units: unitCount, cachedUnits, batches: pending.length, inputChars, beforeWindow: first, redactions: final.value.redactions + ordered.reduce((sum, entry) => sum + entry.analysis.redactions, 0) },
        timings,
      },
    };
  }
  return { extract, cache, window: baseSettings.window ?? DEFAULT_EXTRACTION_SETTINGS.window };
}
