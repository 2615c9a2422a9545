/**
 * The words decisions are compared by, and when two say the same thing: shared by the ranking of a
 * session's decisions (merge-prose.ts) and the lines that fill a thin one (turn-reports.ts).
 */
import { rememberedWordSets } from '../../text/remembered.js';

/** Share of shared words from which two decisions say the same thing. */
export const NEAR_REPEAT = 0.6;

/** Texts whose words are remembered: the window's decisions, with room to spare. */
const REMEMBERED_DECISIONS = 4_096;

/**
 * The words two decisions are compared by. Remembered, like the words of requests (merge-prose.ts): a compaction
 * after the session grew splits nearly the same texts again, and under Bun these splits are a large
 * share of ranking the decisions.
 */
export const decisionWords = rememberedWordSets(400, false, REMEMBERED_DECISIONS);

/** Share of the smaller set's words the other holds too: from {@link NEAR_REPEAT} on, two decisions say the same thing. */
export function overlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const word of a) if (b.has(word)) shared++;
  return shared / Math.min(a.size, b.size);
}
