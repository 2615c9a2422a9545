import { describe, expect, it } from 'vitest';
import { atOrder, createAnalysisCache } from '../../../src/main/compaction/analysis-cache.js';
import type { UnitAnalysis } from '../../../src/workers/protocol.js';

function analysis(key: string, lead: string): UnitAnalysis {
  return { key, order: 0, chars: lead.length, h2Count: 0, lead, leadIsWhole: true, firstSection: '', firstSectionOpen: false, lastSection: '', lastSectionOpen: false, decisions: [], files: [], signals: [], notes: [], terms: [], language: 'und', redactions: 0 };
}

describe('createAnalysisCache', () => {
  it('should return what was stored', () => {
    const cache = createAnalysisCache();
    cache.set('a', analysis('a', 'hello'));
    expect(cache.get('a')?.lead).toBe('hello');
    expect(cache.get('b')).toBeUndefined();
  });

  it('should evict the least recently used entries past its bound', () => {
    const cache = createAnalysisCache(1_000);
    cache.set('a', analysis('a', 'x'.repeat(300)));
    cache.set('b', analysis('b', 'x'.repeat(300)));
    cache.get('a');
    cache.set('c', analysis('c', 'x'.repeat(300)));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('c')).toBeDefined();
    expect(cache.heldChars).toBeLessThanOrEqual(1_000);
  });

  it('should tell whether it holds a key without marking it used', () => {
    const cache = createAnalysisCache(1_000);
    cache.set('a', analysis('a', 'x'.repeat(300)));
    cache.set('b', analysis('b', 'x'.repeat(300)));
    expect(cache.has('a')).toBe(true);
    expect(cache.has('z')).toBe(false);
    cache.set('c', analysis('c', 'x'.repeat(300)));
    // `has` left `a` the least recently used: it goes first.
    expect(cache.has('a')).toBe(false);
    expect(cache.has('b')).toBe(true);
  });

  it('should account for replaced entries and clear', () => {
    const cache = createAnalysisCache();
    cache.set('a', analysis('a', 'x'.repeat(100)));
    cache.set('a', analysis('a', 'x'.repeat(10)));
    expect(cache.size).toBe(1);
    expect(cache.heldChars).toBe(210);
    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.heldChars).toBe(0);
  });

  it('should move a kept analysis and every item in it to the message\'s new position, and leave one in place as it is', () => {
    const kept: UnitAnalysis = {
      ...analysis('a', 'lead'),
      order: 50,
      decisions: [{ family: 'explicit', category: 'architecture', text: 'use Redis', context: 'We use Redis.', order: 50 }, { family: 'explicit', category: 'architecture', text: 'no order', context: '' }],
      files: [{ path: 'src/a.ts', tool: 'edit', order: 50, action: 'edit' }],
      signals: [{ id: 'p1', type: 'problem', text: 'TypeError', order: 50, frequency: 1 }],
      notes: [{ id: 'n1', type: 'next', text: 'run the tests', order: 50, frequency: 1 }],
      terms: [{ name: 'redis', weight: 2, kind: 'technology', order: 50 }],
    } as UnitAnalysis;
    expect(atOrder(kept, 50)).toBe(kept);
    const moved = atOrder(kept, 20);
    expect(moved.order).toBe(20);
    expect([...moved.decisions, ...moved.files, ...moved.signals, ...moved.notes, ...moved.terms].map((item) => (item as { order?: number }).order)).toEqual([20, undefined, 20, 20, 20, 20]);
    // The kept one is left as it was, for the next read.
    expect(kept.files[0]?.order).toBe(50);
  });
});
