import { describe, expect, it } from 'vitest';
import { truncateToTokens } from '../../../../src/core/text/tokens/token-truncation.js';
import { countTokens } from '../../../../src/core/text/tokens/tokens.js';
import { budgetCases, ENCODINGS, fixture } from '../../../fixtures/tokens/texts.js';

describe('truncateToTokens', () => {
  it('should keep the longest prefix within the budget', () => {
    const text = fixture('prose.md');
    const cut = truncateToTokens(text, 50);
    expect(text.startsWith(cut)).toBe(true);
    expect(countTokens(cut)).toBe(50);
    expect(countTokens(text.slice(0, cut.length + 12))).toBeGreaterThan(50);
    expect(truncateToTokens(text, countTokens(text))).toBe(text);
  });

  it('should return an empty string for a budget of zero or less', () => {
    expect(truncateToTokens('hello', 0)).toBe('');
    expect(truncateToTokens('hello', -3)).toBe('');
    expect(truncateToTokens('hello', Number.NaN)).toBe('');
  });

  it('should never end in half a character', () => {
    for (const encoding of ENCODINGS) {
      for (const text of ['漢字'.repeat(400), '😀👩‍👩‍👧🎉'.repeat(300), 'é'.repeat(3_000)]) {
        for (const budget of [1, 2, 3, 7, 100]) {
          const cut = truncateToTokens(text, budget, encoding);
          expect(text.startsWith(cut)).toBe(true);
          expect(cut).not.toMatch(/[\uD800-\uDBFF]$/);
          expect(cut).not.toContain('\uFFFD');
        }
      }
    }
  });

  it('should keep 500 tokens of 10 MB of text', () => {
    const text = fixture('prose.md').repeat(4_200);
    expect(text.length).toBeGreaterThan(10_000_000);
    const cut = truncateToTokens(text, 500);
    expect(countTokens(cut)).toBeLessThanOrEqual(500);
    expect(countTokens(cut)).toBeGreaterThan(490);
  });

  it('should finish on 100k-character unbroken runs', () => {
    for (const run of ['漢'.repeat(100_000), '='.repeat(100_000), '😀'.repeat(50_000)]) {
      const cut = truncateToTokens(run, 700);
      expect(countTokens(cut)).toBeLessThanOrEqual(700);
      expect(cut.length).toBeGreaterThan(0);
    }
  });

  it.each(ENCODINGS)('should never exceed the budget, by even one token, on random text (%s)', (encoding) => {
    for (const { text, budget } of budgetCases(encoding)) {
      const cut = truncateToTokens(text, budget, encoding);
      expect(text.startsWith(cut)).toBe(true);
      expect(countTokens(cut, encoding)).toBeLessThanOrEqual(budget);
    }
  });
});
