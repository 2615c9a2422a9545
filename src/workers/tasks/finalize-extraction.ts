/**
 * The conversation-wide pass: concepts from the boundary sections, merged
 * decisions and files, and the budgeted preservation context.
 */
import type { FileTouch, FinalizeInput, FinalizeOutput, StageTimings } from '../protocol.js';
import type { Decision } from '../stages/decisions.js';
import type { Observation } from '../stages/observations.js';
import { proseBlocks } from '../stages/markdown.js';
import { redactSecrets } from '../stages/secrets.js';
import { countConcepts, type ConceptCount } from '../stages/concepts.js';
import { handleSessionCompacting } from '../stages/compaction-budget.js';
import { renderObservationLine, renderPreservationContext } from '../stages/preservation-context.js';
import { timed } from './analyze-units.js';
import { liveNotes, rankDecisions } from '../stages/merge-prose.js';

/** Decisions ranked (the user's requests in `notes` raise what answers them), near repeats merged, capped (see `rankDecisions`). */
export function mergeDecisions(decisions: readonly Decision[], max: number, notes: readonly Observation[] = []): Decision[] {
  return rankDecisions(decisions, max, notes);
}

/** Paths by most recent touch first, each once, at most `max`. */
export function mergeFiles(files: readonly FileTouch[], max: number): FileTouch[] {
  const latest = new Map<string, FileTouch>();
  for (const touch of files) {
    const known = latest.get(touch.path);
    if (!known || touch.order >= known.order) latest.set(touch.path, touch);
  }
  return [...latest.values()].sort((a, b) => b.order - a.order || a.path.localeCompare(b.path)).slice(0, max);
}

/** Signals merged by id: frequencies add up, the latest position wins. */
export function mergeSignals(signals: readonly Observation[]): Observation[] {
  const byId = new Map<string, Observation>();
  for (const signal of signals) {
    const known = byId.get(signal.id);
    if (known) byId.set(signal.id, { ...known, order: Math.max(known.order, signal.order), frequency: known.frequency + signal.frequency });
    else byId.set(signal.id, { ...signal });
  }
  return [...byId.values()];
}

function toObservations(
  concepts: readonly ConceptCount[],
  decisions: readonly Decision[],
  files: readonly FileTouch[],
  signals: readonly Observation[],
  latestOrder: number,
): Observation[] {
  return [
    ...decisions.map((decision, index): Observation => ({
      id: `decision:${index}`,
      type: 'decision',
      text: `${decision.category}: ${decision.text}`,
      // Decisions arrive oldest first; spread them over the conversation for recency.
      order: Math.round((latestOrder * (index + 1)) / decisions.length),
      frequency: 1,
    })),
    ...signals,
    ...concepts.map((concept): Observation => ({
      id: `concept:${concept.name}`,
      type: 'concept',
      text: `[[${concept.name}]]`,
      order: latestOrder,
      frequency: concept.count,
      topics: [concept.name],
    })),
    ...files.map((touch): Observation => ({
      id: `file:${touch.path}`,
      type: 'file',
      text: touch.path,
      order: touch.order,
      frequency: 1,
      topics: [touch.path.split('/').pop() ?? touch.path],
    })),
  ];
}

/**
 * Task: concepts, merged lists and the preservation context.
 *
 * @param input - boundary sections and the bounded per-message results.
 */
export function finalizeExtraction(input: FinalizeInput): FinalizeOutput {
  const timings: StageTimings = {};
  const { settings } = input;
  // The sections are the only raw text that reaches this pass: secrets go before anything reads them.
  const redacted = timed(timings, 'redact', () => input.sections.map((section) => redactSecrets(section)));
  const sections = redacted.map((section) => section.text);
  const blocks = timed(timings, 'parse', () => sections.flatMap((section) => proseBlocks(section)));
  const concepts = timed(timings, 'concepts', () => countConcepts(blocks, { max: settings.maxConcepts }));
  const decisions = timed(timings, 'merge', () => mergeDecisions(input.decisions, settings.maxDecisions, input.notes));
  const files = timed(timings, 'merge', () => mergeFiles(input.files, settings.maxFiles));
  const live = timed(timings, 'merge', () => liveNotes(input.notes));
  const signals = timed(timings, 'merge', () => mergeSignals([...input.signals, ...live]));
  const observations = toObservations(concepts, decisions, files, signals, input.latestOrder);
  const budgeted = timed(timings, 'budget', () =>
    handleSessionCompacting(observations, { ...settings.strategy, targetTokenCount: settings.contextTokenBudget }, {
      encoding: settings.encoding,
      render: renderObservationLine,
    }),
  );
  const context = timed(timings, 'budget', () =>
    renderPreservationContext(budgeted.observations, settings.contextTokenBudget, settings.encoding),
  );
  return {
    concepts,
    decisions,
    files: files.map((touch) => touch.path),
    observations: budgeted.observations,
    observationsRemoved: budgeted.removed,
    next: live.filter((note) => note.type === 'next').map((note) => note.text),
    context: { ...context, budget: settings.contextTokenBudget },
    sections,
    redactions: redacted.reduce((sum, section) => sum + section.redactions, 0),
    timings,
  };
}
