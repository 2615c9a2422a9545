/**
 * Per-message analyses kept between compactions of a growing session, so the
 * next compaction processes only the new messages.
 */
import { LRUCache } from 'lru-cache';
import type { UnitAnalysis } from '../../workers/protocol.js';

/** A bounded least-recently-used cache of analyses by unit key. */
export interface AnalysisCache {
  get(key: string): UnitAnalysis | undefined;
  /** Whether the key is held, without marking it used. */
  has(key: string): boolean;
  set(key: string, analysis: UnitAnalysis): void;
  clear(): void;
  readonly size: number;
  /** Characters held (sections and leads), the measure the bound applies to. */
  readonly heldChars: number;
}

/**
 * A kept analysis at its message's position in this read of the conversation. Positions count from
 * the first message read, which moves on as the session grows, and every item found in the message
 * (decision, file, problem, note, term) carries the position as well, which recency reads: all of
 * them move together, or a message analysed earlier would look as recent as one written since.
 *
 * @param analysis - as cached.
 * @param order - the message's position now.
 */
export function atOrder(analysis: UnitAnalysis, order: number): UnitAnalysis {
  const shift = order - analysis.order;
  if (shift === 0) return analysis;
  const move = <T extends { order?: number }>(items: readonly T[]): T[] =>
    items.map((item) => (typeof item.order === 'number' ? { ...item, order: item.order + shift } : item));
  return {
    ...analysis,
    order,
    decisions: move(analysis.decisions),
    files: move(analysis.files),
    signals: move(analysis.signals),
    notes: move(analysis.notes),
    terms: move(analysis.terms),
  };
}

function weight(analysis: UnitAnalysis): number {
  return analysis.lead.length + analysis.firstSection.length + analysis.lastSection.length + 200;
}

/**
 * @param maxChars - bound on the characters held; the least recently used entries go first.
 * @default maxChars 32_000_000 (≈ 64 MB of UTF-16)
 */
export function createAnalysisCache(maxChars = 32_000_000): AnalysisCache {
  const entries = new LRUCache<string, UnitAnalysis>({ maxSize: maxChars, sizeCalculation: weight });
  return {
    get: (key) => entries.get(key),
    // A look that does not count as a use.
    has: (key) => entries.has(key),
    set(key, analysis) {
      entries.set(key, analysis);
    },
    clear() {
      entries.clear();
    },
    get size() {
      return entries.size;
    },
    get heldChars() {
      return entries.calculatedSize;
    },
  };
}
