import { describe, expect, it } from 'vitest';
import { allGroupsMatch, contextWithoutFiles, groupMatches, normalizeForMatch } from '../../src/eval/truth-match.js';

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
