import { describe, expect, it } from 'vitest';
import { pooledMetrics } from '../../src/eval/pooled-metrics.js';
import { scoreSession, type Truth } from '../../src/eval/score.js';
import { output, truth } from '../fixtures/eval/cache-fix.js';

describe('pooledMetrics', () => {
  it('should pool hits over items across sessions, not average the rates', () => {
    const small: Truth = { session: 'small', decisions: [], files: ['a.ts'], problems: [], topics: [], next: [] };
    const scores = [
      scoreSession(small, output({ files: ['a.ts'] })),
      scoreSession(truth, output({ files: ['src/cache.ts'] })),
      scoreSession(truth, null),
    ];
    const metrics = pooledMetrics(scores);
    // 1/1, 1/2 and 0/2: pooled 2/5, where a mean of rates would give 0.5.
    expect(metrics.file_recall).toBeCloseTo(2 / 5);
    expect(metrics.decision_precision).toBe(0);
    expect(Object.keys(metrics).sort()).toEqual(['decision_precision', 'decision_recall', 'file_recall', 'next_recall', 'problem_recall', 'topic_concept_rate']);
  });
});
