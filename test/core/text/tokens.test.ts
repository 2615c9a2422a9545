import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as o200k from 'gpt-tokenizer/encoding/o200k_base';
import * as cl100k from 'gpt-tokenizer/encoding/cl100k_base';
import { modelToEncodingMap } from 'gpt-tokenizer/mapping';
import {
  countTokens,
  encodingForModel,
  fitLines,
  isWithinTokens,
  truncateToTokens,
  type TokenEncoding,
} from '../../../src/core/text/tokens.js';
import { createPrng } from '../../../src/synth/prng.js';

const ENCODINGS: readonly TokenEncoding[] = ['o200k_base', 'cl100k_base'];
const fixture = (name: string): string => readFileSync(new URL(`../../fixtures/tokens/${name}`, import.meta.url), 'utf8');

/** gpt-tokenizer's own count of the whole text, special-token text counted as text. */
function wholeCount(text: string, encoding: TokenEncoding): number {
  const options = { disallowedSpecial: new Set<string>() };
  return encoding === 'o200k_base' ? o200k.countTokens(text, options) : cl100k.countTokens(text, options);
}

const ATOMS = [
  'the', 'Budget', 'WORKER', "don't", "we'll", ' ', '  ', '\n', '\n\n', '\t', '.', ',', ';', '=', '==', '{', '}', '(',
  ')', '"', '/', '-', '_', '42', '3.14', '1000000', 'café', 'naïve', '日本語', '漢字', '😀', '👩‍👩‍👧', '<|endoftext|>',
  '<|im_start|>', '\u00a0', '\u3000', 'e\u0301', 'camelCase', 'snake_case', '```ts', '=> ', '&&', 'src/a.ts', '#',
];

/** Random text mixing words, code, CJK, emoji, whitespace and special-token text; sometimes with a long run. */
function randomText(random: () => number): string {
  const parts: string[] = [];
  const atoms = 1 + Math.floor(random() * 300);
  for (let i = 0; i < atoms; i++) parts.push(ATOMS[Math.floor(random() * ATOMS.length)]!);
  if (random() < 0.15) parts.splice(Math.floor(random() * parts.length), 0, (['=', '漢', '😀', 'a', ' '] as const)[Math.floor(random() * 5)]!.repeat(600 + Math.floor(random() * 2_000)));
  return parts.join('');
}

describe('encodingForModel', () => {
  it('should pick cl100k_base for GPT-3.5, GPT-4 and the embeddings, o200k_base otherwise', () => {
    expect(encodingForModel('gpt-4')).toBe('cl100k_base');
    expect(encodingForModel('openai/gpt-4-turbo')).toBe('cl100k_base');
    expect(encodingForModel('gpt-3.5-turbo-0125')).toBe('cl100k_base');
    expect(encodingForModel('azure/gpt-35-turbo')).toBe('cl100k_base');
    expect(encodingForModel('text-embedding-3-small')).toBe('cl100k_base');
    expect(encodingForModel('gpt-4o-mini')).toBe('o200k_base');
    expect(encodingForModel('gpt-4.1')).toBe('o200k_base');
    expect(encodingForModel('gpt-4.5-preview')).toBe('o200k_base');
    expect(encodingForModel('anthropic/claude-sonnet-4')).toBe('o200k_base');
    expect(encodingForModel(undefined)).toBe('o200k_base');
  });

  it("should agree with gpt-tokenizer's model map on every model it maps to cl100k_base", () => {
    // The map lists older models only; unlisted ones use o200k_base, as here.
    const entries = Object.entries(modelToEncodingMap).filter(([, encoding]) => ENCODINGS.includes(encoding as TokenEncoding));
    expect(entries.length).toBeGreaterThanOrEqual(20);
    for (const [model, encoding] of entries) expect([model, encodingForModel(model)]).toEqual([model, encoding]);
  });
});

describe('countTokens', () => {
  it.each(ENCODINGS)('should equal the whole-text count on prose, code, JSON and markdown (%s)', (encoding) => {
    const config = fixture('config.json');
    const texts = [
      fixture('prose.md'),
      fixture('code.ts.txt'),
      config,
      JSON.stringify(JSON.parse(config)),
      [fixture('prose.md'), fixture('code.ts.txt'), config].join('\n\n').repeat(6),
      // No word boundary at all: only pre-token ends of the tokenizer's own pattern can be cut.
      JSON.stringify(Array.from({ length: 800 }, (_, i) => ({ key: `value_${i}`, path: `/src/m${i}.ts`, n: i * 7 }))),
      Array.from({ length: 3_000 }, (_, i) => `k${i}=${i % 7 === 0 ? 'x' : i}`).join(','),
    ];
    for (const text of texts) {
      expect(text.length).toBeGreaterThan(1_024);
      expect(countTokens(text, encoding)).toBe(wholeCount(text, encoding));
    }
  });

  it.each(ENCODINGS)('should equal the whole-text count on random mixed text without long runs (%s)', (encoding) => {
    const random = createPrng(3);
    for (let i = 0; i < 60; i++) {
      const text = Array.from({ length: 20 }, () => ATOMS.slice(0, 32)[Math.floor(random() * 32)]).join('').repeat(1 + Math.floor(random() * 80));
      expect(countTokens(text, encoding)).toBe(wholeCount(text, encoding));
    }
  });

  it.each(ENCODINGS)('should equal the whole-text count where only pre-token ends can be cut (%s)', (encoding) => {
    // No single space between a non-space and a letter: the text has no word boundary, and whitespace-ending
    // pre-tokens sit next to every candidate cut.
    const atoms = ['\t', 'dEf', ' .', '  ', '22', '=', '\n', ' =', '{', '}', '\u000b', '漢字', "'ll", 'x=1', '\r\n', '"k":"v"'];
    const random = createPrng(5);
    for (let i = 0; i < 40; i++) {
      const text = Array.from({ length: 1_500 }, () => atoms[Math.floor(random() * atoms.length)]).join('');
      expect(countTokens(text, encoding)).toBe(wholeCount(text, encoding));
    }
  });

  it('should count special-token text as ordinary text instead of throwing', () => {
    expect(() => o200k.countTokens('<|endoftext|>')).toThrow();
    for (const encoding of ENCODINGS) {
      expect(countTokens('<|endoftext|>', encoding)).toBeGreaterThan(1);
      expect(countTokens('a <|im_start|>system<|im_end|>', encoding)).toBe(wholeCount('a <|im_start|>system<|im_end|>', encoding));
    }
  });

  it('should count empty text as zero and default to o200k_base', () => {
    expect(countTokens('')).toBe(0);
    expect(countTokens('漢字の文章')).toBe(wholeCount('漢字の文章', 'o200k_base'));
  });

  it.each(ENCODINGS)('should finish on 100k-character unbroken runs with a positive count (%s)', (encoding) => {
    const runs = ['漢'.repeat(100_000), '='.repeat(100_000), '😀'.repeat(50_000), 'a'.repeat(100_000), ' '.repeat(100_000)];
    for (const run of runs) expect(countTokens(run, encoding)).toBeGreaterThan(0);
  });

  it('should stay close to the whole-text count where a run has to be cut hard', () => {
    const random = createPrng(11);
    const letters = Array.from({ length: 6_000 }, () => String.fromCharCode(97 + Math.floor(random() * 26))).join('');
    const exact = wholeCount(letters, 'cl100k_base');
    expect(Math.abs(countTokens(letters, 'cl100k_base') - exact)).toBeLessThanOrEqual(6);
  });

  it('should reject an unknown encoding as misuse', () => {
    expect(() => countTokens('x', 'p50k_base' as TokenEncoding)).toThrow(/encoding must be/);
  });
});

describe('isWithinTokens', () => {
  it('should compare against the exact count', () => {
    const text = fixture('prose.md');
    const exact = countTokens(text);
    expect(isWithinTokens(text, exact)).toBe(true);
    expect(isWithinTokens(text, exact - 1)).toBe(false);
    expect(isWithinTokens('', 0)).toBe(true);
    expect(isWithinTokens('x', -1)).toBe(false);
  });

  it('should answer on huge text without counting it all', () => {
    expect(isWithinTokens('word '.repeat(2_000_000), 100)).toBe(false);
  });
});

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
});

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
});

describe('budget properties', () => {
  it.each(ENCODINGS)('should never exceed the budget, by even one token, on random text (%s)', (encoding) => {
    const random = createPrng(encoding === 'o200k_base' ? 1 : 2);
    for (let round = 0; round < 120; round++) {
      const text = randomText(random);
      const total = countTokens(text, encoding);
      const budget = Math.floor(random() * (total + 5));

      const cut = truncateToTokens(text, budget, encoding);
      expect(text.startsWith(cut)).toBe(true);
      expect(countTokens(cut, encoding)).toBeLessThanOrEqual(budget);

      const textLines = text.split('\n');
      const fitted = fitLines(textLines.slice(1), budget, { header: textLines[0], encoding });
      expect(fitted.tokens).toBe(countTokens(fitted.text, encoding));
      expect(fitted.tokens).toBeLessThanOrEqual(budget);
    }
  });
});
