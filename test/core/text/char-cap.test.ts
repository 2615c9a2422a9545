import { describe, expect, it } from 'vitest';
import { capChars, capCharsFromEnd } from '../../../src/core/text/char-cap.js';

describe('capChars', () => {
  it('should never split a surrogate pair', () => {
    expect(capChars('ab😀', 3)).toBe('ab');
    expect(capChars('ab😀', 4)).toBe('ab😀');
    expect(capChars('abc', 5)).toBe('abc');
    expect(capChars('abc', 0)).toBe('');
  });
});

describe('capCharsFromEnd', () => {
  it.each([
    ['😀ab', 3, 'ab'],
    ['x😀ab', 4, '😀ab'],
    ['abc', 5, 'abc'],
    ['abc', 0, ''],
  ])('should never start %s on the second half of a surrogate pair (cap %i)', (text, maxChars, expected) => {
    expect(capCharsFromEnd(text, maxChars)).toBe(expected);
  });
});
