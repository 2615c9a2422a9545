/**
 * One pass over a text that finds which kinds of cue it holds: the cues of
 * every kind in one trie of lowercase literals, walked from each position,
 * with the word-edge rules of the cue expressions checked on the original
 * text. Regular expressions of many case-insensitive alternatives are fast in
 * V8 but slow in JavaScriptCore, the engine of OpenCode's Bun (measured on the
 * decision stage: 5 times slower overall, up to 50 times for one expression);
 * a trie walk costs the same in both, and one walk answers every kind.
 */

/** How a cue matches: as a whole word, as a word's start (`congel*`), or anywhere (CJK, symbols). */
export type CueShape = 'whole' | 'prefix' | 'anywhere';

interface TrieNode {
  children: Map<number, TrieNode>;
  /** Kinds (bits) that end here, by shape. */
  whole: number;
  prefix: number;
  anywhere: number;
}

const node = (): TrieNode => ({ children: new Map(), whole: 0, prefix: 0, anywhere: 0 });

const LETTER_OR_NUMBER = /[\p{L}\p{N}]/u;

function isLetterOrNumberCode(code: number): boolean {
  if (code < 0x80) return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
  return LETTER_OR_NUMBER.test(String.fromCodePoint(code));
}

/** The code point that ends just before `at` (a surrogate pair read whole). */
function codePointBefore(text: string, at: number): number {
  const low = text.charCodeAt(at - 1);
  if (low >= 0xdc00 && low <= 0xdfff && at >= 2) {
    const high = text.charCodeAt(at - 2);
    if (high >= 0xd800 && high <= 0xdbff) return ((high - 0xd800) << 10) + (low - 0xdc00) + 0x10000;
  }
  return low;
}

const JOINER = (code: number): boolean => code === 0x2e || code === 0x2d || code === 0x2f;

/** No word ends right before `at`: neither a letter, digit or `_`, nor a letter or digit joined by `.`, `-` or `/`. */
function startsWord(text: string, at: number): boolean {
  if (at === 0) return true;
  const previous = codePointBefore(text, at);
  if (previous === 0x5f || isLetterOrNumberCode(previous)) return false;
  if (JOINER(previous) && at >= 2) return !isLetterOrNumberCode(codePointBefore(text, at - 1));
  return true;
}

/** No word goes on at `at`: neither a letter, digit or `_`, nor `.`, `-` or `/` joining a letter or digit. */
function endsWord(text: string, at: number): boolean {
  if (at >= text.length) return true;
  const next = text.codePointAt(at) as number;
  if (next === 0x5f || isLetterOrNumberCode(next)) return false;
  if (JOINER(next) && at + 1 < text.length) return !isLetterOrNumberCode(text.codePointAt(at + 1) as number);
  return true;
}

/** Cues of several kinds in one trie; {@link CueTrie.scan} gives the kinds a text holds as bits. */
export class CueTrie {
  readonly #root = node();
  #lastText: string | null = null;
  #lastKinds = 0;

  /**
   * @param cues - each literal with its kind's bit and its shape; letters are matched case-insensitively.
   */
  constructor(cues: ReadonlyArray<{ literal: string; bit: number; shape: CueShape }>) {
    for (const { literal, bit, shape } of cues) {
      let at = this.#root;
      const lower = literal.toLowerCase();
      for (let index = 0; index < lower.length; index++) {
        const code = lower.charCodeAt(index);
        let next = at.children.get(code);
        if (!next) at.children.set(code, (next = node()));
        at = next;
      }
      at[shape] |= bit;
    }
  }

  /**
   * The kinds whose cues the text holds, as bits; `null` when lowercasing changes the text's length
   * (a few letters such as `İ`), where positions could not be checked on the original text.
   *
   * @param text - any text.
   */
  scan(text: string): number | null {
    // The same text is asked for several kinds in a row (a change verb, then a hedge, then a reason).
    if (text === this.#lastText) return this.#lastKinds;
    const lower = text.toLowerCase();
    if (lower.length !== text.length) return null;
    let kinds = 0;
    for (let start = 0; start < lower.length; start++) {
      let at = this.#root.children.get(lower.charCodeAt(start));
      if (!at) continue;
      let startChecked: boolean | null = null;
      let end = start + 1;
      for (;;) {
        if (at.anywhere) kinds |= at.anywhere;
        if (at.whole | at.prefix) {
          startChecked ??= startsWord(text, start);
          if (startChecked) {
            kinds |= at.prefix;
            if (at.whole && endsWord(text, end)) kinds |= at.whole;
          }
        }
        if (end >= lower.length) break;
        const next: TrieNode | undefined = at.children.get(lower.charCodeAt(end));
        if (!next) break;
        at = next;
        end++;
      }
    }
    this.#lastText = text;
    this.#lastKinds = kinds;
    return kinds;
  }
}
