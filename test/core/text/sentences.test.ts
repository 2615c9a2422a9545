import { describe, expect, it } from 'vitest';
import { splitAfterStops } from '../../../src/core/text/sentences.js';
import { createPrng } from '../../../src/synth/prng.js';

const PIECES = ['a', 'Word', '.', '!', '?', ' ', '  ', '\n', '\t', '\u00a0', '\u3000', '。', '！', '？', '文', '😀', '..', '. ', 'g.', '\u2028', '\ufeff', ''];

describe('splitAfterStops', () => {
  // Abbreviations aside (see below), the same cuts as the lookbehind expressions.
  it('should cut exactly where split with the lookbehind expressions cuts', () => {
    const random = createPrng(7);
    // The texts whose cuts differ, with both cuts: one assertion for the 20,000 samples (one each cost a
    // second of CPU in the test runner's bookkeeping alone).
    const differing: { text: string; cjk: boolean; cuts: string[]; expected: string[] }[] = [];
    for (let sample = 0; sample < 20_000; sample++) {
      let text = '';
      const length = Math.floor(random() * 8);
      for (let piece = 0; piece < length; piece++) text += PIECES[Math.floor(random() * PIECES.length)];
      for (const [cjk, expected] of [
        [false, text.split(/(?<=[.!?])\s+/)],
        [true, text.split(/(?<=[.!?])\s+|(?<=[。！？])/u)],
      ] as const) {
        const cuts = splitAfterStops(text, cjk);
        if (JSON.stringify(cuts) !== JSON.stringify(expected)) differing.push({ text, cjk, cuts, expected });
      }
    }
    expect(differing).toEqual([]);
  });

  it('should not end a sentence at the full stop of an abbreviation', () => {
    expect(splitAfterStops('Use a queue, e.g. p-limit. Then measure it.', false)).toEqual(['Use a queue, e.g. p-limit.', 'Then measure it.']);
    expect(splitAfterStops('Bun vs. Node: both ran. Done', false)).toEqual(['Bun vs. Node: both ran.', 'Done']);
    expect(splitAfterStops('Cache (i.e. Redis) added. 完成。', true)).toEqual(['Cache (i.e. Redis) added.', '完成。']);
    // A word that only ends like one is still a sentence's end.
    expect(splitAfterStops('We kept the canvas. Next step', false)).toEqual(['We kept the canvas.', 'Next step']);
  });
});
