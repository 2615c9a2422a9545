import { describe, expect, it } from 'vitest';
import { fitLines } from '../../../src/core/text/fit-lines.js';
import { countTokens } from '../../../src/core/text/tokens/tokens.js';
import { budgetCases, ENCODINGS, fixture } from '../../fixtures/tokens/texts.js';

describe('fitLines', () => {
  const lines = fixture('prose.md').split('\n');

  it('should keep whole lines in order while the joined text fits, and stop at the first that does not', () => {
    const fitted = fitLines(lines, 120, { header: '## Kept' });
    expect(fitted.kept).toBeGreaterThan(0);
    expect(fitted.text).toBe(['## Kept', ...lines.slice(0, fitted.kept)].join('\n'));
    expect(fitted.tokens).toBe(countTokens(fitted.text));
    expect(fitted.tokens).toBeLessThanOrEqual(120);
    expect(countTokens(`${fitted.text}\n${lines[fitted.kept]}`)).toBeGreaterThan(120);
  });

  it('should count the assembled text, where joins merge tokens, not the sum of the parts', () => {
    const dotted = Array.from({ length: 40 }, (_, i) => `step ${i} done.`);
    const fitted = fitLines(dotted, 10_000);
    const sumOfParts = dotted.reduce((sum, line) => sum + countTokens(line), 0) + countTokens('\n') * (dotted.length - 1);
    expect(fitted.tokens).toBe(countTokens(dotted.join('\n')));
    expect(fitted.tokens).toBeLessThan(sumOfParts);
  });

  it('should use the given separator and encoding', () => {
    const fitted = fitLines(['alpha', 'beta', 'gamma'], 100, { separator: ' | ', encoding: 'cl100k_base' });
    expect(fitted).toEqual({ text: 'alpha | beta | gamma', tokens: countTokens('alpha | beta | gamma', 'cl100k_base'), kept: 3 });
  });

  it('should return empty text when even the header does not fit', () => {
    expect(fitLines(['a'], 2, { header: 'a header that is longer than two tokens' })).toEqual({ text: '', tokens: 0, kept: 0 });
    expect(fitLines(['a'], -1)).toEqual({ text: '', tokens: 0, kept: 0 });
  });

  it('should stop at a huge line without counting all of it', () => {
    const fitted = fitLines(['short line', 'x y '.repeat(1_000_000), 'never reached'], 50);
    expect(fitted.kept).toBe(1);
    expect(fitted.text).toBe('short line');
  });

  it.each(ENCODINGS)('should never exceed the budget, by even one token, on random text (%s)', (encoding) => {
    for (const { text, budget } of budgetCases(encoding)) {
      const textLines = text.split('\n');
      const fitted = fitLines(textLines.slice(1), budget, { header: textLines[0], encoding });
      expect(fitted.tokens).toBe(countTokens(fitted.text, encoding));
      expect(fitted.tokens).toBeLessThanOrEqual(budget);
    }
  });
});
