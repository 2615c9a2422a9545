/**
 * Analyses as one read of the conversation places them. Positions count from
 * the first message the hook reads, which moves on as the session grows, and
 * every item found in a message (decision, file, problem, note, term) carries
 * its message's position, which recency reads. A kept analysis still carries
 * the position it was found at (a prefetched one, none), so the items that
 * reach the final pass are moved to this read's positions, all of a message's
 * together, and so are the note ids that hold the position: else a message
 * analysed earlier would look as recent as one written since, and a request
 * kept from an earlier read would merge with the new one that now sits where
 * it was found.
 */
import type { UnitAnalysis } from '../../workers/protocol.js';
import { placedNoteId } from '../../core/extraction/notes/note-ids.js';

/** An analysis and its message's position in this read. */
export interface PlacedAnalysis {
  analysis: UnitAnalysis;
  order: number;
}

function moved<T extends { order?: number; id?: string }>(items: readonly T[], from: number, to: number): readonly T[] {
  if (from === to) return items;
  const shift = to - from;
  return items.map((item) => {
    if (typeof item.order !== 'number') return item;
    const order = item.order + shift;
    // A note's id that holds the position follows it, so a kept analysis gives what a new one would.
    return typeof item.id === 'string' ? { ...item, order, id: placedNoteId(item.id, item.order, order) } : { ...item, order };
  });
}

/**
 * The most recent `max` items of a per-message list, in conversation order, at this read's positions.
 *
 * @param placed - the read's analyses, in conversation order.
 * @param pick - the list of one analysis.
 * @param max - how many to keep.
 */
export function recentItems<T extends { order?: number; id?: string }>(placed: readonly PlacedAnalysis[], pick: (analysis: UnitAnalysis) => readonly T[], max: number): T[] {
  const chunks: (readonly T[])[] = [];
  let count = 0;
  for (let index = placed.length - 1; index >= 0 && count < max; index--) {
    const { analysis, order } = placed[index] as PlacedAnalysis;
    const items = pick(analysis);
    chunks.push(moved(items, analysis.order, order));
    count += items.length;
  }
  const flat = chunks.reverse().flat();
  return flat.slice(Math.max(0, flat.length - max));
}
