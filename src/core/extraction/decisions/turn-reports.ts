/**
 * The lines that close a turn below a decision's marks (prose-decisions.ts, `turnReportLine`), taken into a
 * session whose stated decisions leave room: after the ranking of merge-prose.ts, never in its place.
 */
import type { Decision } from './decisions.js';
import { decisionWords, NEAR_REPEAT, overlap } from './decision-words.js';

/** Most lines one turn's closing message may fill a thin session with: its first, the main change it reports. */
export const MAX_TURN_REPORT_LINES = 1;

/** A decision kept by the ranking: its position among the stated decisions and its words. */
export interface KeptDecision {
  decision: Decision;
  index: number;
  words: ReadonlySet<string>;
}

/**
 * Fills a session whose stated decisions are fewer than `room` from the lines that close its turns below a decision's
 * marks (a plain "Rewrote the README as a guide.", an inventory line "TransactionService: syncs the balance"): only
 * those the session's edits bear out, the latest first, at most {@link MAX_TURN_REPORT_LINES} from one message,
 * near repeats of what is kept left out. A session that states enough decisions is left as it was.
 *
 * @param kept - the decisions kept so far, each with its position in `collapsed`; filled in place.
 * @param lines - the turn-closing lines, oldest first.
 * @param collapsed - the stated decisions ranked, in conversation order: a line is placed among them by its message.
 * @param borneOut - whether the session's edits bear a line out.
 */
export function fillFromTurnReports(
  kept: KeptDecision[],
  lines: readonly Decision[],
  room: number,
  collapsed: readonly Decision[],
  borneOut: (decision: Decision) => boolean,
): void {
  if (kept.length >= room || lines.length === 0) return;
  const perMessage = new Map<number, number>();
  for (const entry of kept) perMessage.set(entry.decision.order ?? -1, (perMessage.get(entry.decision.order ?? -1) ?? 0) + 1);
  // The latest turn's account first; within one message, its lines in their order (its first is its main change).
  const latestFirst = [...lines].sort((a, b) => (b.order ?? -1) - (a.order ?? -1));
  const span = (latestFirst[0]?.order ?? 0) + 2;
  for (const decision of latestFirst) {
    if (kept.length >= room) break;
    const order = decision.order ?? -1;
    const count = perMessage.get(order) ?? 0;
    if (count >= MAX_TURN_REPORT_LINES || !borneOut(decision)) continue;
    const own = decisionWords(decision.text);
    if (kept.some((other) => overlap(own, other.words) >= NEAR_REPEAT)) continue;
    perMessage.set(order, count + 1);
    // Placed after the stated decisions of its message and of every earlier one, before those of later messages,
    // and after the lines of earlier messages placed between the same two: the list stays in conversation order.
    const before = collapsed.filter((other) => (other.order ?? -1) <= order).length;
    kept.push({ decision, index: before - 1 + (order + 1) / span, words: own });
  }
}
