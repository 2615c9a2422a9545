/**
 * Settings of one extraction, with the defaults the hooks use.
 */
import type { TokenEncoding } from '../../core/text/tokens/token-encodings.js';
import { CONSERVATIVE_STRATEGY, type CompactionStrategy } from '../../core/context/compaction-strategy.js';
import { DEFAULT_WINDOW_LIMITS, type WindowLimits } from './conversation-window.js';

/** Everything that shapes an extraction. */
export interface ExtractionSettings {
  /** The worktree, to make tool paths relative. @default null */
  projectRoot: string | null;
  /** Tokenizer of the model that reads the context. @default 'o200k_base' */
  encoding: TokenEncoding;
  /** Exact token budget of the preservation context, small so it does not crowd the compaction prompt. @default 500 */
  contextTokenBudget: number;
  /** Cap on each boundary section, so parsing stays small whatever the session size. @default 16000 */
  maxSectionChars: number;
  /** Concepts kept, each a link in the note. @default 20 */
  maxConcepts: number;
  /** Decisions kept after merging. @default 10 */
  maxDecisions: number;
  /** Working-set paths kept, most recent first. @default 20 */
  maxFiles: number;
  /** Decisions found per message at most. @default 10 */
  maxDecisionsPerUnit: number;
  /** How many of the most recent decisions, file touches and signals reach the final pass. */
  decisionWindow: number;
  fileWindow: number;
  signalWindow: number;
  /** Characters of messages per pooled batch: smaller batches spread better over workers. @default 262144 */
  batchChars: number;
  /** How the observation budget decides what to drop (see compaction-strategy.ts). */
  strategy: CompactionStrategy;
  /** Which messages are read: since the latest summary, within bounds. @default DEFAULT_WINDOW_LIMITS */
  window: WindowLimits;
}

/** The defaults. */
export const DEFAULT_EXTRACTION_SETTINGS: Readonly<ExtractionSettings> = Object.freeze({
  projectRoot: null,
  encoding: 'o200k_base',
  contextTokenBudget: 500,
  maxSectionChars: 16_000,
  maxConcepts: 20,
  maxDecisions: 10,
  maxFiles: 20,
  maxDecisionsPerUnit: 10,
  decisionWindow: 200,
  fileWindow: 2_000,
  signalWindow: 500,
  batchChars: 256 * 1024,
  strategy: Object.freeze({ ...CONSERVATIVE_STRATEGY, targetTokenCount: 500 }),
  window: DEFAULT_WINDOW_LIMITS,
});
