import { describe, expect, it } from 'vitest';
import { formatSummary, moveTopics, type TopicCounts } from '../../../src/core/context/dropped-summary.js';

describe('formatSummary', () => {
  it('should name the most frequent topics first, ties alphabetical, up to the limit', () => {
    const counts: TopicCounts = new Map();
    moveTopics(counts, ['cache', 'lru'], 1);
    moveTopics(counts, ['cache', 'retry'], 1);
    moveTopics(counts, ['auth'], 1);
    expect(formatSummary(3, counts, 2)).toBe('[3] older observations summarized: cache, auth');
    expect(formatSummary(3, counts, 0)).toBe('[3] older observations summarized');
  });
});

describe('moveTopics', () => {
  it('should forget a topic once no dropped observation names it', () => {
    const counts: TopicCounts = new Map();
    moveTopics(counts, ['cache'], 1);
    moveTopics(counts, ['cache'], -1);
    expect([...counts]).toEqual([]);
  });
});
