/**
 * The conversation-wide pass: concepts from the boundary sections, merged
 * decisions and files, and the budgeted preservation context.
 */
import type { FinalizeInput, FinalizeOutput, StageTimings } from './analysis.js';
import type { FileTouch, TermHit } from '../working-set/touches.js';
import type { Decision } from '../decisions/decisions.js';
import type { Observation } from '../observations.js';
import { LRUCache } from 'lru-cache';
import { proseBlocks } from '../../text/markdown.js';
import { redactSecrets } from '../../text/secrets.js';
import { countConcepts, mayHoldWikiLinks, type ConceptCount } from '../concepts/concepts.js';
import { rankTermConcepts, DEFAULT_CONCEPT_RANK_SETTINGS } from '../concepts/concept-ranking.js';
import { handleSessionCompacting } from '../../context/compaction-budget.js';
import { contextOverheadTokens, entryKey, renderObservationLine, renderPreservationContext } from '../../context/preservation-context.js';
import { timed } from './stage-timing.js';
import { inferProjectRoot, rankWorkingSet } from '../working-set/working-set-rank.js';
import { SHELL_TOOL } from '../working-set/working-set.js';
import { resolveByLaterRuns } from '../problems/tool-signals.js';
import { liveNotes, rankDecisions, type DecisionEvidence } from './merge-prose.js';
import { rankProblems } from '../problems/problem-rank.js';

/** Decisions ranked (the user's requests in `notes` raise what answers them), near repeats merged, capped (see `rankDecisions`). */
export function mergeDecisions(decisions: readonly Decision[], max: number, notes: readonly Observation[] = [], evidence?: DecisionEvidence): Decision[] {
  return rankDecisions(decisions, max, notes, evidence);
}

/**
 * The working set: each path once, edited > written > deleted > run > read, then by count and recency
 * (see `rankWorkingSet`), at most `max`, relative to `root`.
 */
export function mergeFiles(files: readonly FileTouch[], max: number, root: string | null = null): FileTouch[] {
  return rankWorkingSet(files, max, root);
}

/**
 * The project root the session's paths imply, when the worktree did not already make them relative
 * (a session export read on its own): see `inferProjectRoot`.
 */
export function sessionRoot(files: readonly FileTouch[]): string | null {
  // A file tool's relative path means the worktree already applied; a command's (`rm package-lock.json`
  // with no `cd`) is relative to wherever the shell was, which says nothing.
  const relative = files.some((touch) => touch.action !== 'cwd' && !SHELL_TOOL.test(touch.tool) && !touch.path.startsWith('/') && !/^[A-Za-z]:\//.test(touch.path));
  return relative ? null : inferProjectRoot(files);
}

/** `root` written either way (`/` or `\\`), for making the paths inside observation texts relative. */
function rootPattern(root: string | null): RegExp | null {
  if (root === null) return null;
  const parts = root.split('/').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  // Not inside a longer path: `/w/app` must not match within `C:\\w\\app` or `/x/w/app`.
  return new RegExp(`(?<![\\w:.\\\\/-])${parts.join('[\\\\/]')}[\\\\/]`, /^[A-Za-z]:/.test(root) ? 'gi' : 'g');
}

/**
 * Signals merged by id: frequencies add up, the latest occurrence's position, text and source win;
 * then problems a later clean run of the same command settled are marked fixed (`resolveByLaterRuns`).
 *
 * @param root - the project root; paths under it inside texts are made relative.
 */
export function mergeSignals(signals: readonly Observation[], root: string | null = null): Observation[] {
  const byId = new Map<string, Observation>();
  const under = rootPattern(root);
  for (const signal of signals) {
    const known = byId.get(signal.id);
    const text = under ? signal.text.replace(under, '') : signal.text;
    if (!known) byId.set(signal.id, { ...signal, text });
    else if (signal.order >= known.order) byId.set(signal.id, { ...signal, text, frequency: known.frequency + signal.frequency });
    else byId.set(signal.id, { ...known, frequency: known.frequency + signal.frequency });
  }
  return resolveByLaterRuns([...byId.values()]);
}

/**
 * The session's concepts: the links it wrote first (they always win), then its
 * lasting topics from the terms of every message, up to the topic cap.
 */
export function sessionConcepts(links: readonly ConceptCount[], terms: readonly TermHit[], max: number): ConceptCount[] {
  const room = Math.min(max, DEFAULT_CONCEPT_RANK_SETTINGS.max) - links.length;
  const topics = room > 0 ? rankTermConcepts(terms, links.map((link) => link.name), { max: room }) : [];
  return [...links, ...topics];
}

/** Order of value when the same text comes as two types: the more valuable type keeps it. */
const TYPE_PRECEDENCE: readonly Observation['type'][] = ['decision', 'problem', 'next', 'warning', 'file', 'success', 'concept', 'note'];

/**
 * Everything the context may preserve, each text once: decisions, then the session's signals and notes by
 * value of their type (in conversation order within a type), then concepts and files.
 */
function toObservations(
  concepts: readonly ConceptCount[],
  decisions: readonly Decision[],
  files: readonly FileTouch[],
  signals: readonly Observation[],
  latestOrder: number,
): Observation[] {
  const rank = (type: Observation['type']): number => {
    const index = TYPE_PRECEDENCE.indexOf(type);
    return index === -1 ? TYPE_PRECEDENCE.length : index;
  };
  const candidates: Observation[] = [
    ...decisions.map((decision, index): Observation => ({
      id: `decision:${index}`,
      type: 'decision',
      // The category says how the sentence was phrased, not what was decided: the text alone is the decision.
      text: decision.text,
      // Decisions arrive oldest first; spread them over the conversation for recency.
      order: Math.round((latestOrder * (index + 1)) / decisions.length),
      frequency: 1,
    })),
    ...[...signals].sort((a, b) => rank(a.type) - rank(b.type)),
    ...files.map((touch): Observation => ({
      id: `file:${touch.path}`,
      type: 'file',
      text: touch.path,
      order: touch.order,
      frequency: 1,
      topics: [touch.path.split('/').pop() ?? touch.path],
    })),
    ...concepts.map((concept): Observation => ({
      id: `concept:${concept.name}`,
      type: 'concept',
      text: `[[${concept.name}]]`,
      order: latestOrder,
      frequency: concept.count,
      topics: [concept.name],
    })),
  ];
  const seen = new Set<string>();
  return candidates.filter((observation) => {
    const key = entryKey(observation.text);
    if (key.length === 0 || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Most of each noted type the note may take beyond the budget's: the note lists at most ten of a kind. */
const MAX_UNBUDGETED_PER_TYPE = 10;

/** The problems, warnings and next steps the budget dropped, in their order, a few of each type. */
function leftOut(all: readonly Observation[], kept: readonly Observation[]): Observation[] {
  const keptIds = new Set(kept.map((observation) => observation.id));
  const taken = new Map<Observation['type'], number>();
  return all.filter((observation) => {
    if (keptIds.has(observation.id) || !['problem', 'warning', 'next'].includes(observation.type)) return false;
    const count = taken.get(observation.type) ?? 0;
    if (count >= MAX_UNBUDGETED_PER_TYPE) return false;
    taken.set(observation.type, count + 1);
    return true;
  });
}

/** A boundary section redacted, and its prose blocks once parsed. */
interface ReadSection {
  text: string;
  redactions: number;
  blocks?: string[];
}

/**
 * Sections read lately, by their raw text: the next compaction of a session mostly finds the same
 * boundary sections, and parsing them is a large share of this pass.
 */
const readSections = new LRUCache<string, ReadSection>({ max: 16 });

function readSection(raw: string): ReadSection {
  let read = readSections.get(raw);
  if (!read) {
    const { text, redactions } = redactSecrets(raw);
    read = { text, redactions };
    readSections.set(raw, read);
  }
  return read;
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
  const redacted = timed(timings, 'redact', () => input.sections.map((section) => readSection(section)));
  const sections = redacted.map((section) => section.text);
  const blocks = timed(timings, 'parse', () => redacted.flatMap((section) => (section.blocks ??= mayHoldWikiLinks(section.text) ? proseBlocks(section.text) : [])));
  const concepts = timed(timings, 'concepts', () => sessionConcepts(countConcepts(blocks, { max: settings.maxConcepts }), input.terms, settings.maxConcepts));
  const decisions = timed(timings, 'merge', () => mergeDecisions(input.decisions, settings.maxDecisions, input.notes, { files: input.files, signals: input.signals }));
  const root = timed(timings, 'merge', () => sessionRoot(input.files));
  const files = timed(timings, 'merge', () => mergeFiles(input.files, settings.maxFiles, root));
  const live = timed(timings, 'merge', () => liveNotes(input.notes));
  const signals = timed(timings, 'merge', () => rankProblems(mergeSignals([...input.signals, ...live], root), input.latestOrder));
  const observations = toObservations(concepts, decisions, files, signals, input.latestOrder);
  // The entries get what the headings leave; in aggressive mode the line standing for the dropped ones reaches
  // the context too.
  const budgeted = timed(timings, 'budget', () => {
    const overhead = contextOverheadTokens(observations, settings.strategy.mode === 'aggressive', settings.encoding);
    return handleSessionCompacting(
      observations,
      { ...settings.strategy, targetTokenCount: Math.max(0, settings.contextTokenBudget - overhead) },
      { encoding: settings.encoding, render: (observation) => renderObservationLine(observation, settings.encoding) },
    );
  });
  const context = timed(timings, 'budget', () =>
    renderPreservationContext(budgeted.observations, settings.contextTokenBudget, settings.encoding, budgeted.summary),
  );
  return {
    concepts,
    decisions,
    files: files.map((touch) => touch.path),
    observations: budgeted.observations,
    observationsRemoved: budgeted.removed,
    unbudgeted: leftOut(observations, budgeted.observations),
    next: live.filter((note) => note.type === 'next').map((note) => note.text),
    context: { ...context, budget: settings.contextTokenBudget },
    sections,
    redactions: redacted.reduce((sum, section) => sum + section.redactions, 0),
    timings,
  };
}
