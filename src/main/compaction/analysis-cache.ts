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
