/**
 * Per-message analyses kept between compactions of a growing session, so the
 * next compaction processes only the new messages.
 */
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
  const entries = new Map<string, UnitAnalysis>();
  let held = 0;
  return {
    get(key) {
      const found = entries.get(key);
      if (found) {
        // Re-insert to mark as recently used (Map keeps insertion order).
        entries.delete(key);
        entries.set(key, found);
      }
      return found;
    },
    has(key) {
      return entries.has(key);
    },
    set(key, analysis) {
      const previous = entries.get(key);
      if (previous) {
        held -= weight(previous);
        entries.delete(key);
      }
      entries.set(key, analysis);
      held += weight(analysis);
      for (const [oldest, value] of entries) {
        if (held <= maxChars) break;
        entries.delete(oldest);
        held -= weight(value);
      }
    },
    clear() {
      entries.clear();
      held = 0;
    },
    get size() {
      return entries.size;
    },
    get heldChars() {
      return held;
    },
  };
}
