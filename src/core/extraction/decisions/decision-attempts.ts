/**
 * Retries are one decision: recorded changes of one line of work with no
 * user request between them supersede each other, so only the latest stands.
 */
import type { Decision } from './decisions.js';
import { MAX_DECISION_CONTEXT_CHARS } from './prose-decisions.js';
import { capChars } from '../../text/char-cap.js';

/**
 * Successive attempts at one change made one decision: recorded changes of one line of work (see
 * `Decision.line`) with no user request between them are retries, each superseding the one before
 * (six `fix(deploy): …` commits while a pipeline keeps failing), so only the latest is kept, with
 * the count. A new request starts a new line of work, whatever its scope.
 *
 * @param decisions - decisions oldest first.
 * @param requests - the orders of the user's requests, ascending.
 */
export function collapseAttempts(decisions: readonly Decision[], requests: readonly number[]): Decision[] {
  const phaseOf = (order: number): number => {
    let low = 0;
    let high = requests.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((requests[middle] ?? 0) <= order) low = middle + 1;
      else high = middle;
    }
    return low;
  };
  const latest = new Map<string, { index: number; count: number }>();
  for (const [index, decision] of decisions.entries()) {
    if (decision.line === undefined || decision.order === undefined) continue;
    const key = `${phaseOf(decision.order)} ${decision.line}`;
    latest.set(key, { index, count: (latest.get(key)?.count ?? 0) + 1 });
  }
  if (latest.size === 0) return [...decisions];
  const kept = new Map<number, number>();
  for (const { index, count } of latest.values()) kept.set(index, count);
  const collapsed: Decision[] = [];
  for (const [index, decision] of decisions.entries()) {
    if (decision.line === undefined || decision.order === undefined) collapsed.push(decision);
    else {
      const count = kept.get(index);
      if (count === undefined) continue;
      collapsed.push(count > 1 ? { ...decision, attempts: count, context: capChars(`${decision.context} [latest of ${count} attempts]`, MAX_DECISION_CONTEXT_CHARS) } : decision);
    }
  }
  return collapsed;
}
