import { describe, expect, it } from 'vitest';
import { countConcepts, extractConcepts, findWikiLinks, mayHoldWikiLinks, normalizeConcept } from '../../../../src/core/extraction/concepts/concepts.js';
import { proseBlocks } from '../../../../src/core/text/markdown.js';

describe('findWikiLinks', () => {
  it('should follow the seed pattern, including its partial match on nesting', () => {
    expect(findWikiLinks('Using [[React]] and [[TypeScript]]')).toEqual(['React', 'TypeScript']);
    expect(findWikiLinks('See [[foo [[bar]]]]')).toEqual(['foo [[bar']);
    expect(findWikiLinks('')).toEqual([]);
    expect(findWikiLinks('[[]] [[a]b]] [[ok]]')).toEqual(['ok']);
  });

  it('should agree with the seed regex on random bracket soup', () => {
    const pieces = ['[', ']', '[[', ']]', 'a', ' ', 'b'];
    let state = 7;
    for (let round = 0; round < 500; round++) {
      let text = '';
      for (let index = 0; index < 30; index++) {
        state = (state * 1103515245 + 12345) % 2147483648;
        text += pieces[state % pieces.length];
      }
      const expected = [...text.matchAll(/\[\[([^\]]+)\]\]/g)].map((match) => match[1]);
      expect(findWikiLinks(text)).toEqual(expected);
    }
  });

  it('should finish on a megabyte of unclosed brackets', () => {
    expect(findWikiLinks('[['.repeat(500_000))).toEqual([]);
    expect(findWikiLinks(`${'[[a'.repeat(300_000)}]`)).toEqual([]);
  });
});

describe('mayHoldWikiLinks', () => {
  it('should say no only where no prose read from the text can hold a link', () => {
    const texts = ['[[redis]] client', '\\[\\[escaped]]', '&#91;&#91;referenced]]', '&lsqb;[named]]', 'a [single] bracket, [a link](https://x.test) and `code`'];
    for (const text of texts) {
      const linked = proseBlocks(text).flatMap(findWikiLinks);
      expect(mayHoldWikiLinks(text) || linked.length === 0).toBe(true);
    }
    expect(texts.slice(0, 4).map(mayHoldWikiLinks)).toEqual([true, true, true, true]);
    expect(proseBlocks('\\[\\[escaped]]').flatMap(findWikiLinks)).toEqual(['escaped']);
    expect(mayHoldWikiLinks(texts[4] as string)).toBe(false);
  });
});

describe('normalizeConcept', () => {
  it('should apply the seed rules with Unicode letters and digits', () => {
    expect(normalizeConcept('React')).toBe('react');
    expect(normalizeConcept(' Cache  Layer ')).toBe('cache-layer');
    expect(normalizeConcept('snake_case/path')).toBe('snake-case-path');
    expect(normalizeConcept('Node.js!')).toBe('nodejs');
    expect(normalizeConcept('--a---b--')).toBe('a-b');
    expect(normalizeConcept('データ構造')).toBe('データ構造');
    expect(normalizeConcept('Café')).toBe('café');
    expect(normalizeConcept('!!!')).toBe('');
  });

  it('should reject concepts longer than 100 code points', () => {
    expect(normalizeConcept('a'.repeat(100))).toBe('a'.repeat(100));
    expect(normalizeConcept('a'.repeat(101))).toBe('');
    expect(normalizeConcept('😀'.repeat(60) + 'ü'.repeat(40))).toBe('ü'.repeat(40));
    expect(normalizeConcept('構'.repeat(100))).toBe('構'.repeat(100));
  });

  it('should be idempotent (random inputs)', () => {
    const alphabet = ['A', 'b', ' ', '_', '/', '-', '.', 'É', 'ß', 'İ', 'ﬁ', '構', '٣', '\u0301', '!', '\t'];
    let state = 3;
    for (let round = 0; round < 500; round++) {
      let raw = '';
      for (let index = 0; index < 1 + (round % 40); index++) {
        state = (state * 1103515245 + 12345) % 2147483648;
        raw += alphabet[state % alphabet.length];
      }
      const once = normalizeConcept(raw);
      expect(normalizeConcept(once)).toBe(once);
    }
  });
});

describe('extractConcepts', () => {
  it('should normalize each link, give nothing for no text, and read a nested link to its first closing brackets', () => {
    expect(extractConcepts('Using [[React]] and [[TypeScript]]')).toEqual(['react', 'typescript']);
    expect(extractConcepts('')).toEqual([]);
    expect(extractConcepts('See [[foo [[bar]]]]')).toEqual(['foo-bar']);
  });
});

describe('countConcepts', () => {
  it('should count links in first-seen order and cap the list', () => {
    const texts = ['[[Redis]] then [[API Gateway]]', 'again [[redis]] and [[api_gateway]] and [[Kafka]]'];
    expect(countConcepts(texts)).toEqual([
      { name: 'redis', count: 2 },
      { name: 'api-gateway', count: 2 },
      { name: 'kafka', count: 1 },
    ]);
    expect(countConcepts(texts, { max: 1 })).toEqual([{ name: 'redis', count: 2 }]);
  });
});
