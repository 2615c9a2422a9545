import { describe, expect, it } from 'vitest';
import { rememberedByText } from '../../../src/core/text/remembered.js';

describe('rememberedByText', () => {
  it('should read a text once and answer again from memory', () => {
    let reads = 0;
    const lengthOf = rememberedByText((text: string) => {
      reads++;
      return { length: text.length };
    }, 2);
    expect(lengthOf('abc')).toEqual({ length: 3 });
    expect(lengthOf('abc')).toBe(lengthOf('abc'));
    expect(reads).toBe(1);
  });

  it('should forget the least recently used text past its bound', () => {
    let reads = 0;
    const read = rememberedByText((text: string) => {
      reads++;
      return [text];
    }, 1);
    read('a');
    read('b');
    read('a');
    expect(reads).toBe(3);
  });
});
