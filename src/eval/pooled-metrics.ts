/**
 * The rates `npm run eval` reports, pooled over sessions: every session's
 * hits and items summed first, so a short session weighs what it holds, not
 * as much as a long one.
 */
import { emptyCounts, type Counts, type SessionScore } from './score.js';

/** The pooled rates `npm run eval` reports. */
export interface Metrics {
  decision_recall: number;
  decision_precision: number;
  file_recall: number;
  problem_recall: number;
  next_recall: number;
  topic_concept_rate: number;
}

/** Sums the counts of several sessions. */
export function poolCounts(scores: readonly SessionScore[]): Counts {
  const total: Counts = emptyCounts({ session: '', decisions: [], files: [], problems: [], topics: [], next: [] });
  for (const { counts } of scores) {
    for (const key of Object.keys(total) as (keyof Counts)[]) total[key] += counts[key];
  }
  return total;
}

const rate = (hits: number, total: number): number => (total > 0 ? hits / total : 0);

/**
 * Pooled rates: sum of hits over sum of items across sessions (a rate with nothing to count is 0).
 *
 * @param scores - the sessions' scores, failed ones included.
 */
export function pooledMetrics(scores: readonly SessionScore[]): Metrics {
  const total = poolCounts(scores);
  return {
    decision_recall: rate(total.decisionHits, total.decisionTruth),
    decision_precision: rate(total.decisionsReal, total.decisionsExtracted),
    file_recall: rate(total.fileHits, total.fileTruth),
    problem_recall: rate(total.problemHits, total.problemTruth),
    next_recall: rate(total.nextHits, total.nextTruth),
    topic_concept_rate: rate(total.topicHits, total.topicTruth),
  };
}
