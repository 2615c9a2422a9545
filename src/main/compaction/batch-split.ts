/**
 * How the hook thread sizes the pool's analysis batches: by characters as
 * they cross, and the last batch (a warm compaction's new messages) in two
 * halves of about equal analysis time.
 */
import type { AnalysisUnit } from '../../workers/protocol.js';

/** Characters from which the last batch is worth splitting: below it, a second hand-off costs more than it saves. */
const MIN_SPLIT_CHARS = 16 * 1024;

function toolOutputChars(unit: AnalysisUnit): number {
  return unit.tools.reduce((sum, tool) => sum + tool.output.length, 0);
}

/**
 * A unit's analysis time in characters of message text, fitted over the new messages of grown
 * sessions: a character of tool output costs about a tenth of one of text, and a message a fixed
 * cost of about 300 characters of text whatever it holds. Halves of equal characters alone left
 * one worker longer than the other.
 */
function unitCost(unit: AnalysisUnit): number {
  return unit.text.length + toolOutputChars(unit) / 10 + 300;
}

/** The last batch, in two halves of about equal analysis time when it is large enough to split. */
export function splitTail<T extends { unit: AnalysisUnit }>(batch: T[], chars: number): T[][] {
  if (batch.length === 0) return [];
  if (batch.length < 2 || chars < MIN_SPLIT_CHARS) return [batch];
  const costs = batch.map((item) => unitCost(item.unit));
  const total = costs.reduce((sum, cost) => sum + cost, 0);
  let taken = 0;
  let cut = 0;
  while (cut < batch.length - 1 && taken + (costs[cut] as number) / 2 < total / 2) taken += costs[cut++] as number;
  return [batch.slice(0, Math.max(1, cut)), batch.slice(Math.max(1, cut))];
}
