/**
 * How the compaction budget shrinks observations: the two presets and the
 * check that fills a partial strategy from them. Apart from the selection so
 * that the hook's settings and the pool's protocol can name a strategy
 * without the algorithm.
 */
import type { ObservationType } from '../extraction/observations.js';

/** How to shrink observations that exceed their budget. */
export interface CompactionStrategy {
  /** `conservative` never drops `preserveTypes` while others remain; `aggressive` drops by score alone and summarizes. */
  mode: 'conservative' | 'aggressive';
  /** Exact token budget of the rendered observations (and the summary line, if any). */
  targetTokenCount: number;
  /** Types kept before any other in `conservative` mode; ignored in `aggressive` mode. */
  preserveTypes: readonly ObservationType[];
}

/**
 * Keeps decisions, open problems, work in progress and warnings (what a summary must not lose, and
 * what the continuation starts from); drops other types first. No summary.
 */
export const CONSERVATIVE_STRATEGY: Readonly<CompactionStrategy> = Object.freeze({
  mode: 'conservative',
  targetTokenCount: 1_000,
  preserveTypes: Object.freeze<ObservationType[]>(['decision', 'problem', 'next', 'warning']),
});

/** Drops the lowest-scored observations of any type and summarizes them in one line. */
export const AGGRESSIVE_STRATEGY: Readonly<CompactionStrategy> = Object.freeze({
  mode: 'aggressive',
  targetTokenCount: 1_000,
  preserveTypes: Object.freeze<ObservationType[]>([]),
});

/**
 * A whole strategy: missing fields come from the preset of its mode.
 *
 * @param partial - overrides; `mode` picks the preset. @default CONSERVATIVE_STRATEGY
 * @throws TypeError or RangeError naming the field that is wrong.
 */
export function resolveStrategy(partial: Partial<CompactionStrategy>): CompactionStrategy {
  const mode = partial.mode ?? CONSERVATIVE_STRATEGY.mode;
  if (mode !== 'conservative' && mode !== 'aggressive') {
    throw new TypeError(`strategy.mode must be 'conservative' or 'aggressive', got ${String(mode)}`);
  }
  const defaults = mode === 'aggressive' ? AGGRESSIVE_STRATEGY : CONSERVATIVE_STRATEGY;
  const targetTokenCount = partial.targetTokenCount ?? defaults.targetTokenCount;
  if (!Number.isInteger(targetTokenCount) || targetTokenCount < 0) {
    throw new RangeError(`strategy.targetTokenCount must be a non-negative integer, got ${String(targetTokenCount)}`);
  }
  const preserveTypes = partial.preserveTypes ?? defaults.preserveTypes;
  if (!Array.isArray(preserveTypes)) throw new TypeError('strategy.preserveTypes must be an array of observation types');
  return { mode, targetTokenCount, preserveTypes };
}
