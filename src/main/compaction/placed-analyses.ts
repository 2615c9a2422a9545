/**
 * Analyses as one read of the conversation places them. Positions count from
 * the first message the hook reads, which moves on as the session grows, and
 * every item found in a message (decision, file, problem, note, term) carries
 * its message's position, which recency reads. A kept analysis still carries
 * the position it was found at (a prefetched one, none), so the items that
 * reach the final pass are moved to this read's positions, all of a message's
 * together: else a message analysed earlier would look as recent as one
 * written since.
 */
import type { UnitAnalysis } from '../../workers/protocol.js';

/** An analysis and its message's position in this read. */
export interface PlacedAnalysis {
  analysis: UnitAnalysis;
  order: number;
}

function moved<T extends { order?: number }>(items: readonly T[], shift: number): readonly T[] {
  return shift === 0 ? items : items.map((item) => (typeof item.order === 'number' ? { ...item, order: item.order + shift } : item));
}

/**
 * The most recent `max` items of a per-message list, in conversation order, at this read's positions.
 *
 * @param placed - the read's analyses, in conversation order.
 * @param pick - the list of one analysis.
 * @param max - how many to keep.
 */
export function recentItems<T extends { order?: number }>(placed: readonly PlacedAnalysis[], pick: (analysis: UnitAnalysis) => readonly T[], max: number): T[] {
  const chunks: (readonly T[])[] = [];
  let count = 0;
  for (let index = placed.length - 1; index >= 0 && count < max; index--) {
    const { analysis, order } = placed[index] as PlacedAnalysis;
    const items = pick(analysis);
    chunks.push(moved(items, order - analysis.order));
    count += items.length;
  }
  const flat = chunks.reverse().flat();
  return flat.slice(Math.max(0, flat.length - max));
}
