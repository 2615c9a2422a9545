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
  it('should never start on the second half of a surrogate pair', () => {
    expect(capCharsFromEnd('😀ab', 3)).toBe('ab');
    expect(capCharsFromEnd('x😀ab', 4)).toBe('😀ab');
    expect(capCharsFromEnd('abc', 5)).toBe('abc');
    expect(capCharsFromEnd('abc', 0)).toBe('');
  });
});
