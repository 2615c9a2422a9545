import { describe, expect, it } from 'vitest';
import { normalizeLineBreaks, splitLines } from '../../../src/core/text/line-breaks.js';

describe('splitLines', () => {
  it('should split on every line break a reader honours, CRLF once', () => {
    expect(splitLines('a\nb\r\nc\rd\u000Be\u000Cf\u0085g\u2028h\u2029i')).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i']);
    expect(splitLines('\r\n\r')).toEqual(['', '', '']);
    expect(splitLines('')).toEqual(['']);
  });
});

describe('normalizeLineBreaks', () => {
  it('should make every line break one line feed and leave other white space', () => {
    expect(normalizeLineBreaks('a\r\nb\rc\u0085d\u2029e\tf g')).toBe('a\nb\nc\nd\ne\tf g');
  });
});
