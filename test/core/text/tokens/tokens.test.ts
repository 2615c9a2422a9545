import { describe, expect, it } from 'vitest';
import * as o200k from 'gpt-tokenizer/encoding/o200k_base';
import * as cl100k from 'gpt-tokenizer/encoding/cl100k_base';
import { modelToEncodingMap } from 'gpt-tokenizer/mapping';
import { countTokens, encodingForModel, isWithinTokens, type TokenEncoding } from '../../../../src/core/text/tokens/tokens.js';
import { createPrng } from '../../../../src/synth/prng.js';
import { ATOMS, ENCODINGS, fixture } from '../../../fixtures/tokens/texts.js';

/** gpt-tokenizer's own count of the whole text, special-token text counted as text. */
function wholeCount(text: string, encoding: TokenEncoding): number {
  const options = { disallowedSpecial: new Set<string>() };
  return encoding === 'o200k_base' ? o200k.countTokens(text, options) : cl100k.countTokens(text, options);
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
