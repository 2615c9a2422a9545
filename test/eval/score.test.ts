import { describe, expect, it } from 'vitest';
import { scoreSession } from '../../src/eval/score.js';
import { output, truth } from '../fixtures/eval/cache-fix.js';

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
