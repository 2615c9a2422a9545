import { describe, expect, it } from 'vitest';
import { splitAfterStops } from '../../../src/core/text/sentences.js';
import { createPrng } from '../../../src/synth/prng.js';

const PIECES = ['a', 'Word', '.', '!', '?', ' ', '  ', '\n', '\t', '\u00a0', '\u3000', '。', '！', '？', '文', '😀', '..', '. ', 'e.g.', '\u2028', '\ufeff', ''];

describe('splitAfterStops', () => {
  it('should cut exactly where split with the lookbehind expressions cuts', () => {
    const random = createPrng(7);
    for (let sample = 0; sample < 20_000; sample++) {
      let text = '';
      const length = Math.floor(random() * 8);
      for (let piece = 0; piece < length; piece++) text += PIECES[Math.floor(random() * PIECES.length)];
      expect(splitAfterStops(text, false), JSON.stringify(text)).toEqual(text.split(/(?<=[.!?])\s+/));
      expect(splitAfterStops(text, true), JSON.stringify(text)).toEqual(text.split(/(?<=[.!?])\s+|(?<=[。！？])/u));
    }
  });
});

