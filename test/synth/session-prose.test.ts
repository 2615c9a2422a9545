import { describe, expect, it } from 'vitest';
import { generatedProse, proseInPieces } from '../../src/synth/session-prose.js';

describe('generatedProse', () => {
  it('should give the same non-empty texts for a seed, and others for another seed', () => {
    const texts = generatedProse(3, 64 * 1024);
    expect(texts.length).toBeGreaterThan(5);
    expect(texts.every((text) => text.length > 0)).toBe(true);
    expect(generatedProse(3, 64 * 1024)).toEqual(texts);
    expect(generatedProse(4, 64 * 1024)).not.toEqual(texts);
  });
});

describe('proseInPieces', () => {
  it('should join texts into pieces just past the piece size, and stop once past the total', () => {
    const texts = Array.from({ length: 50 }, (_, index) => `text ${index} `.repeat(10));
    const pieces = proseInPieces(texts, 300, 1_000);
    expect(pieces.every((piece) => piece.length > 300)).toBe(true);
    const total = pieces.reduce((sum, piece) => sum + piece.length, 0);
    expect(total).toBeGreaterThan(1_000);
    expect(total - (pieces.at(-1)?.length ?? 0)).toBeLessThanOrEqual(1_000);
    expect(pieces.join('')).toBe(texts.slice(0, pieces.join('').split('\n\n').length - 1).map((text) => `${text}\n\n`).join(''));
  });

  it('should leave out a last piece too short to close', () => {
    expect(proseInPieces(['short', 'texts'], 1_000, 10_000)).toEqual([]);
  });
});
