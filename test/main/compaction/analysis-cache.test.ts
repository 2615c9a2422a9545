import { describe, expect, it } from 'vitest';
import { createAnalysisCache } from '../../../src/main/compaction/analysis-cache.js';
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
});
