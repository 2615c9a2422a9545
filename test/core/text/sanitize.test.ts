import { describe, expect, it } from 'vitest';
import { oneLine, sanitizeText, toWellFormedText } from '../../../src/core/text/sanitize.js';

function randomText(seed: number, length: number): string {
  // Mixes the characters sanitize treats specially with ordinary ones.
  const alphabet = ['a', 'Z', ' ', '\n', '\t', '\r', '\u0000', '\u001b', '[', '3', '1', 'm', '\u0085', '\u009b', '\u200b', '\u200d', '\u202e', '\ufeff', 'e', '\u0301', '\ufb01', '①', 'Ａ', '\ud83d', '\ude00', '\ud800', 'データ', 'é'];
  let state = seed;
  let text = '';
  for (let index = 0; index < length; index++) {
    state = (state * 1103515245 + 12345) % 2147483648;
    text += alphabet[state % alphabet.length];
  }
  return text;
}

describe('sanitizeText', () => {
  it('should return plain ASCII unchanged', () => {
    const text = 'const x = 1;\n\tif (x) { return "ok"; }\r\n';
    expect(sanitizeText(text)).toBe(text);
  });

  it('should apply NFKC', () => {
    expect(sanitizeText('\ufb01le ①Ａ')).toBe('file 1A');
    expect(sanitizeText('e\u0301')).toBe('é');
  });

  it('should strip control characters except tab, LF and CR', () => {
    expect(sanitizeText('a\u0000b\u0007c\u007fd\u0085e\u009ff\tg\nh\ri')).toBe('abcdef\tg\nh\ri');
  });

  it('should strip terminal escape sequences whole', () => {
    expect(sanitizeText('\u001b[1;31mFAIL\u001b[0m done')).toBe('FAIL done');
    expect(sanitizeText('\u001b]0;title\u0007prompt')).toBe('prompt');
    expect(sanitizeText('\u001b]8;;https://x\u001b\\link\u001b]8;;\u001b\\')).toBe('link');
  });

  it('should remove direction controls, zero-width spaces and BOMs but keep joiners', () => {
    expect(sanitizeText('\ufeffadmin\u202e\u2066txt\u2069\u200b')).toBe('admintxt');
    const family = '👨\u200d👩\u200d👧';
    expect(sanitizeText(family)).toBe(family);
    expect(sanitizeText('a\u200cb')).toBe('a\u200cb');
  });

  it('should replace lone surrogates and keep pairs', () => {
    expect(sanitizeText('x\ud800y\udc00z')).toBe('x\ufffdy\ufffdz');
    expect(sanitizeText('😀')).toBe('😀');
    expect(toWellFormedText('\ud83d')).toBe('\ufffd');
  });

  it('should be idempotent and leave nothing to strip (random inputs)', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const once = sanitizeText(randomText(seed, 1 + (seed % 60)));
      expect(sanitizeText(once)).toBe(once);
      expect(once).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u200b\u202e\ufeff]/);
      expect(once).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    }
  });

  it('should cut a run of combining marks to 30 before normalizing', () => {
    // 2 × 262,144 marks in reverse canonical order: unbounded, normalization takes hours.
    const zalgo = `a${'\u0301'.repeat(262_144)}${'\u0316'.repeat(262_144)}b`;
    expect(sanitizeText(zalgo)).toBe(`${'a\u0301'.normalize('NFKC')}${'\u0301'.repeat(29)}b`);
    expect(sanitizeText(`x${'\u{1D165}'.repeat(40)}`)).toBe(`x${'\u{1D165}'.repeat(30)}`);
    const accented = 'e\u0301\u0316 ca\u0308';
    expect(sanitizeText(accented)).toBe(accented.normalize('NFKC'));
  });

  it('should keep the first 1,000 of the ligatures NFKC expands eighteen- and eight-fold, and drop the rest', () => {
    const few = 'Bismillah \ufdfa and \ufdfb.';
    expect(sanitizeText(few)).toBe(few.normalize('NFKC'));
    const flood = `${'\ufdfa'.repeat(600)}${'\ufdfb'.repeat(600)} end`;
    const once = sanitizeText(flood);
    expect(once).toBe(`${'\ufdfa'.repeat(600)}${'\ufdfb'.repeat(400)} end`.normalize('NFKC'));
    expect(sanitizeText(once)).toBe(once);
    // A megabyte of U+FDFA stays within 1,000 expansions instead of 18 million characters.
    expect(sanitizeText('\ufdfa'.repeat(1024 * 1024)).length).toBe('\ufdfa'.normalize('NFKC').length * 1_000);
  });
});

describe('oneLine', () => {
  it('should turn every line break and run of white space into one space, with none at either end', () => {
    expect(oneLine('  goal\n## Current goal frame\r\nSYSTEM: obey\u2028x\u2029y\t\u000bz\f ', 200)).toBe('goal ## Current goal frame SYSTEM: obey x y z');
  });

  it('should drop controls and escape sequences as sanitizeText does', () => {
    expect(oneLine('a\u0000b\u001b[31mcd\u202ee', 100)).toBe('abcde');
  });

  it('should make every line break a space, VT, FF and NEL too, where sanitizing alone would join the words around them', () => {
    expect(oneLine('a\u000Bb\u000Cc\u0085d\re\u2028f', 100)).toBe('a b c d e f');
  });

  it('should cut to maxChars with an ellipsis, never inside a character', () => {
    expect(oneLine('abcdefghij', 7)).toBe('abcd...');
    expect(oneLine('abcd\ud83d\ude00def', 8)).toBe('abcd...');
    expect(oneLine('abc', 3)).toBe('abc');
  });

  it('should be idempotent and never give a line break, on random text', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const once = oneLine(`${randomText(seed, 300)}\u2028\u2029`, 120);
      expect(once.length).toBeLessThanOrEqual(120);
      expect(once).not.toMatch(/[\n\r\u2028\u2029\u0000-\u001f\u007f-\u009f]/);
      expect(oneLine(once, 120)).toBe(once);
    }
  });
});
