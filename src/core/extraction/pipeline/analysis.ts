/**
 * What the extraction passes take and give: one message prepared for analysis, what the per-message
 * pass finds in it, and the conversation-wide pass's input and output. Plain data, so the passes can
 * run on any worker and the hook thread can merge, cache and place their results.
 */
import type { Decision } from '../decisions/decisions.js';
import type { Observation } from '../observations.js';
import type { TokenEncoding } from '../../text/tokens/tokens.js';
import type { SectionKind } from '../../text/sections.js';
import type { ConceptCount } from '../concepts/concepts.js';
import type { CompactionStrategy } from '../../context/compaction-strategy.js';
import type { FileTouch, TermHit, ToolCallView } from '../working-set/touches.js';

/** One message (or one plain-markdown document) prepared for analysis. */
export interface AnalysisUnit {
  /** Cache key: message id plus a fingerprint of its content; `null` for uncacheable input. */
  key: string | null;
  /** Position in the conversation (0 = oldest); decides recency. */
  order: number;
  role: string;
  /** The message's text parts joined, unsanitized. */
  text: string;
  /** The end of its reasoning, when it edits or writes files (see `MessageView.reasoning`); absent otherwise. */
  reasoning?: string;
  tools: ToolCallView[];
  /** Whether the message is a compaction summary the host wrote (`summary: true` after a `compaction` part). */
  summary: boolean;
  /** Set on an assistant message with no text, reasoning or tool part: the model answered nothing. */
  silent?: boolean;
}

/**
 * What one unit contributes, computed once and cached by key: enough to
 * assemble the boundary sections across messages without keeping whole texts.
 */
export interface UnitAnalysis {
  key: string | null;
  order: number;
  /** Length of the sanitized text. */
  chars: number;
  /** Number of H2 headings outside code. */
  h2Count: number;
  /** Text before the first H1/H2 heading (all of it when there is none), capped. */
  lead: string;
  /** Whether `lead` is the whole text (no heading at all in this unit). */
  leadIsWhole: boolean;
  /** The first H2 section, capped; '' when there is no H2. */
  firstSection: string;
  /** Whether the first section runs to the end of the unit (it may continue in the next one). */
  firstSectionOpen: boolean;
  /** The last H2 section, capped (runs to the unit's end unless an H1 follows it). */
  lastSection: string;
  /** Whether the last section runs to the end of the unit. */
  lastSectionOpen: boolean;
  decisions: Decision[];
  files: FileTouch[];
  /** Problems, warnings and successes seen in tool output. */
  signals: Observation[];
  /** What the message's prose says: problems, work in progress, next steps, carried-forward summary lines. */
  notes: Observation[];
  /** Candidate concepts named by the message (keyphrases, technologies, identifiers, file stems). */
  terms: TermHit[];
  /** ISO 639-3 code of the message's language, `und` when too short or unknown. */
  language: string;
  /** Secrets replaced in what leaves this message's analysis (decisions, signals, notes). */
  redactions: number;
}

/** Settings of the analysis pass. */
export interface AnalysisSettings {
  /** Project root used to make tool paths relative. */
  projectRoot: string | null;
  /** Cap on each stored section or lead, in characters. */
  maxSectionChars: number;
  /** Cap on decisions kept per unit. */
  maxDecisionsPerUnit: number;
}

/** Input of `analyzeUnits`. */
export interface AnalyzeInput {
  units: AnalysisUnit[];
  settings: AnalysisSettings;
}

/** Output of `analyzeUnits`. */
export interface AnalyzeOutput {
  analyses: UnitAnalysis[];
  timings: StageTimings;
}

/** Input of `finalizeExtraction`: the assembled boundary sections and merged, bounded lists. */
export interface FinalizeInput {
  sections: string[];
  sectionKind: SectionKind;
  decisions: Decision[];
  files: FileTouch[];
  signals: Observation[];
  notes: Observation[];
  terms: TermHit[];
  latestOrder: number;
  settings: FinalizeSettings;
}

/** Settings of the final pass. */
export interface FinalizeSettings {
  encoding: TokenEncoding;
  /** Exact token budget of the preservation context. */
  contextTokenBudget: number;
  maxConcepts: number;
  maxDecisions: number;
  maxFiles: number;
  strategy: CompactionStrategy;
}

/** The preservation context: markdown for the compaction prompt with its exact token count. */
export interface PreservationContext {
  text: string;
  tokens: number;
  budget: number;
}

/** Output of `finalizeExtraction`. */
export interface FinalizeOutput {
  concepts: ConceptCount[];
  decisions: Decision[];
  files: string[];
  observations: Observation[];
  /** How many observations the budget dropped, and its summary line in aggressive mode. */
  observationsRemoved: number;
  /**
   * Problems, warnings and next steps the context's budget left out, in their order of value: the compaction
   * note has room for them although the compaction prompt had none.
   */
  unbudgeted?: Observation[];
  /** What is in progress: the user's latest requests and the next steps stated since, whether or not the context had room. */
  next: string[];
  context: PreservationContext;
  /** The boundary sections as read: sanitized, secrets redacted. */
  sections: string[];
  /** Secrets redacted from the sections. */
  redactions: number;
  timings: StageTimings;
}

/** Milliseconds spent per stage (summed over units and workers). */
export type StageTimings = Record<string, number>;
