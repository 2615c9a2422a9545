import { describe, expect, it } from 'vitest';
import {
  allGroupsMatch,
  contextWithoutFiles,
  groupMatches,
  normalizeForMatch,
  pooledMetrics,
  scoreSession,
  type ScoredOutput,
  type Truth,
} from '../../src/eval/score.js';

const truth: Truth = {
  session: 'cache-fix',
  decisions: [
    { text: 'replace the unbounded Map cache with an LRU capped at 500 entries', keywords: ['lru', '500'] },
    { text: 'keep the retry loop but lower it to three attempts', keywords: ['retry|retries', 'three|3 attempts'] },
  ],
  files: ['src/cache.ts', 'test/cache.test.ts'],
  problems: [{ text: 'heap grows until the worker is killed', keywords: ['heap|out of memory', 'killed|oom'] }],
  topics: ['lru cache|caching', 'memory leak'],
  next: [{ text: 'benchmark the new cache under load', keywords: ['benchmark', 'cache'] }],
};

function output(overrides: Partial<ScoredOutput> = {}): ScoredOutput {
  return {
    decisions: [],
    files: [],
    observations: [],
    concepts: [],
    context: { text: '', tokens: 0, budget: 500 },
    ...overrides,
  };
}

describe('normalizeForMatch', () => {
  it('should apply NFKC and lower case', () => {
    expect(normalizeForMatch('ＬＲＵ ﬁle Café')).toBe('lru file café');
  });
});

describe('groupMatches', () => {
  it('should match when any alternative occurs as a substring, case-insensitively', () => {
    expect(groupMatches('heap|out of memory', 'the process ran out of memory')).toBe(true);
    expect(groupMatches('HEAP', 'heapdump written')).toBe(true);
    expect(groupMatches('heap|oom', 'nothing relevant')).toBe(false);
  });

  it('should never match through an empty alternative', () => {
    expect(groupMatches('zzz|', 'any text')).toBe(false);
  });

  it('should compare alternatives after NFKC', () => {
    expect(groupMatches('ＬＲＵ', 'an lru cache')).toBe(true);
  });
});

describe('allGroupsMatch', () => {
  it('should need every group', () => {
    expect(allGroupsMatch(['lru', '500'], 'an lru of 500 entries')).toBe(true);
    expect(allGroupsMatch(['lru', '500'], 'an lru of 400 entries')).toBe(false);
  });
});

describe('contextWithoutFiles', () => {
  it('should drop working-set and files sections and keep the sections after them', () => {
    const text = [
      '## Session knowledge to preserve',
      '### Decisions',
      '- Switched to an LRU',
      '### Working set',
      '- src/lru-500.ts',
      '#### Files touched',
      '- src/other.ts',
      '### Open problems',
      '- heap keeps growing',
    ].join('\n');
    const kept = contextWithoutFiles(text);
    expect(kept).toContain('switched to an lru');
    expect(kept).toContain('heap keeps growing');
    expect(kept).not.toContain('lru-500');
    expect(kept).not.toContain('other.ts');
  });
});

describe('scoreSession', () => {
  it('should recall a decision only when all its groups match one extracted decision', () => {
    const split = scoreSession(truth, output({ decisions: [{ text: 'use an LRU' }, { text: 'cap at 500' }] }));
    expect(split.counts.decisionHits).toBe(0);
    expect(split.counts.decisionsReal).toBe(0);
    const joined = scoreSession(truth, output({ decisions: [{ text: 'Switched to an LRU', context: 'capped at 500 entries', category: 'implementation' }] }));
    expect(joined.counts.decisionHits).toBe(1);
    expect(joined.counts.decisionsReal).toBe(1);
    expect(joined.missed.decisions).toEqual([truth.decisions[1]?.text]);
  });

  it('should count decisions that match no truth item as noise against precision', () => {
    const score = scoreSession(truth, output({ decisions: [{ text: 'LRU with 500 entries' }, { text: 'because it is simpler' }] }));
    expect(score.counts.decisionsExtracted).toBe(2);
    expect(score.counts.decisionsReal).toBe(1);
    expect(score.noise).toEqual(['because it is simpler']);
  });

  it('should recall decisions, problems and next steps from the context but not from its files section', () => {
    const context = [
      '## Session knowledge to preserve',
      '### Decisions',
      '- Lowered the retries to three attempts.',
      '### Working set',
      '- src/lru-500.ts (heap killed benchmark cache)',
    ].join('\n');
    const score = scoreSession(truth, output({ context: { text: context, tokens: 40, budget: 500 } }));
    expect(score.counts.decisionHits).toBe(1);
    expect(score.missed.decisions).toEqual([truth.decisions[0]?.text]);
    expect(score.counts.problemHits).toBe(0);
    expect(score.counts.nextHits).toBe(0);
  });

  it('should read problems from problem, warning and error observations only, and next steps from any observation', () => {
    const notes = scoreSession(truth, output({ observations: [{ type: 'note', text: 'Heap grew and the worker was killed; next: benchmark the cache' }] }));
    expect(notes.counts.problemHits).toBe(0);
    expect(notes.counts.nextHits).toBe(1);
    const warned = scoreSession(truth, output({ observations: [{ type: 'warning', text: 'heap limit reached, worker killed (OOM)' }] }));
    expect(warned.counts.problemHits).toBe(1);
  });

  it('should take next steps from a separate next list', () => {
    const score = scoreSession(truth, output({ next: ['Benchmark the LRU cache with 50 clients'] }));
    expect(score.counts.nextHits).toBe(1);
  });

  it('should match files by path suffix at a folder boundary, with either slash', () => {
    const score = scoreSession(truth, output({ files: ['/home/dev/shop/src/cache.ts', 'test\\mycache.test.ts'] }));
    expect(score.counts.fileHits).toBe(1);
    expect(score.missed.files).toEqual(['test/cache.test.ts']);
    expect(scoreSession(truth, output({ files: ['C:\\shop\\test\\cache.test.ts'] })).counts.fileHits).toBe(1);
  });

  it('should find a topic inside a concept name with spaces read as hyphens', () => {
    const score = scoreSession(truth, output({ concepts: ['memory-leak-hunting', 'redis'] }));
    expect(score.counts.topicHits).toBe(1);
    expect(score.missed.topics).toEqual(['lru cache|caching']);
    expect(scoreSession(truth, output({ concepts: ['lru-cache'] })).counts.topicHits).toBe(1);
  });

  it('should count a run that did not happen as all misses', () => {
    const score = scoreSession(truth, null, 'timed out');
    expect(score.ok).toBe(false);
    expect(score.failure).toBe('timed out');
    expect(score.counts).toMatchObject({ decisionTruth: 2, decisionHits: 0, fileTruth: 2, fileHits: 0, nextTruth: 1, nextHits: 0 });
    expect(score.missed.files).toEqual(truth.files);
  });

  it('should count a context over its budget, or a budget over 500, as a failed run', () => {
    const full = { decisions: [{ text: 'LRU of 500' }], files: ['src/cache.ts'] };
    expect(scoreSession(truth, output({ ...full, context: { text: 'x', tokens: 501, budget: 500 } })).ok).toBe(false);
    const wide = scoreSession(truth, output({ ...full, context: { text: 'x', tokens: 600, budget: 800 } }));
    expect(wide.ok).toBe(false);
    expect(wide.counts.decisionHits).toBe(0);
    expect(scoreSession(truth, output({ ...full, context: { text: 'x', tokens: 300, budget: 300 } })).ok).toBe(true);
  });
});

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
