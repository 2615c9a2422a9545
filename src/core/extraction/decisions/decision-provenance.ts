/**
 * Where a decision's words come from, weighed against the session's own
 * record of the work: a commit states a change first-hand, while the report
 * written right after it and a compaction summary written later restate it.
 */
import type { Decision } from './decisions.js';

/**
 * What a line of the report written right after a commit loses: such a report lists the committed
 * change piece by piece (a new function per line), and the commit's subject already states the change
 * as one (on a second set of real sessions, report lines beside their commits were half of the noise
 * of a session that committed each phase; decision recall 0.759 → 0.793, precision 0.731 → 0.769).
 */
export const COMMIT_REPORT_PENALTY = 1;

/**
 * What an item of a compaction summary loses when the transcript records commits before the summary:
 * the summary then condenses work the transcript shows first-hand, and its bullet lists (key decisions,
 * progress, files changed) outranked the commits they restate (with the report rule, precision on a
 * second set of real sessions 0.769 → 0.826; a penalty of 1.5 or 2 gained nothing). Large enough that such an item only
 * fills a list the session's own work leaves short (below the decision threshold from a summary's
 * usual score of 6); a summary at the start of the transcript, with no commit before it, keeps its
 * weight, since it is then the only record of the earlier work.
 */
export const RESTATED_SUMMARY_PENALTY = 3;

/**
 * The penalty of each decision for restating work the transcript records first-hand: a report line
 * written in the message right after a commit ({@link COMMIT_REPORT_PENALTY}), and an item carried from
 * a compaction summary that follows a commit ({@link RESTATED_SUMMARY_PENALTY}). Linear in the decisions.
 *
 * @param decisions - the session's decisions, in any order; commits carry `commitSize`.
 * @returns the penalty of a decision (0 for one that restates nothing).
 */
export function restatementPenalty(decisions: readonly Decision[]): (decision: Decision) => number {
  const commits = new Set<number>();
  let firstCommit = Infinity;
  for (const decision of decisions) {
    if (decision.commitSize === undefined || decision.order === undefined) continue;
    commits.add(decision.order);
    firstCommit = Math.min(firstCommit, decision.order);
  }
  if (commits.size === 0) return () => 0;
  return (decision) => {
    if (decision.order === undefined || decision.commitSize !== undefined) return 0;
    if (decision.family === 'carried') return decision.order > firstCommit ? RESTATED_SUMMARY_PENALTY : 0;
    return decision.family === 'change' && commits.has(decision.order - 1) ? COMMIT_REPORT_PENALTY : 0;
  };
}

/**
 * The decisions that still stand once undone commits are taken out: a command that undid the latest commit
 * (`git revert HEAD`, `git reset --hard HEAD~1`) cancels the latest commit before it that still stood, and
 * is itself no decision. A change the session took back was tried, not decided. Linear in the decisions.
 *
 * @param decisions - the session's decisions, oldest first; commits carry `commitSize`.
 */
export function withoutUndoneCommits(decisions: readonly Decision[]): readonly Decision[] {
  if (!decisions.some((decision) => decision.undoesCommit)) return decisions;
  const standing: Decision[] = [];
  const cancelled = new Set<Decision>();
  for (const decision of decisions) {
    if (decision.commitSize !== undefined) standing.push(decision);
    else if (decision.undoesCommit) {
      const undone = standing.pop();
      if (undone) cancelled.add(undone);
    }
  }
  return decisions.filter((decision) => !decision.undoesCommit && !cancelled.has(decision));
}
