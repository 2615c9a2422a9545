/**
 * One pass over a text that finds which kinds of cue it holds: the cues of
 * every kind in one trie of lowercase literals, walked from each position,
 * with the word-edge rules of the cue expressions checked on the original
 * text. Regular expressions of many case-insensitive alternatives are fast in
 * V8 but several times slower in JavaScriptCore, the engine of OpenCode's Bun;
 * a trie walk costs the same in both, and one walk answers every kind.
 */

/** How a cue matches: as a whole word, as a word's start (`congel*`), or anywhere (CJK, symbols). */
export type CueShape = 'whole' | 'prefix' | 'anywhere';

/** Texts up to this length are remembered between scans. */
const MEMO_CHARS = 4_096;

/**
 * Texts remembered per trie. A message's sentences, items and their leads are each asked about several
 * kinds by several readers (decisions, problems, notes), interleaved: about three scans in four repeat a
 * text scanned a few calls before.
 */
const MEMO_ENTRIES = 64;

/** Lowercase forms of non-ASCII code units, as met; -1 where one lowercases to more than one unit. */
const LOWER = new Map<number, number>();

function lowerCode(code: number): number {
  if (code < 0x80) return code >= 0x41 && code <= 0x5a ? code + 0x20 : code;
  let lower = LOWER.get(code);
  if (lower === undefined) {
    const folded = String.fromCharCode(code).toLowerCase();
    lower = folded.length === 1 ? folded.charCodeAt(0) : -1;
    if (LOWER.size < 65_536) LOWER.set(code, lower);
  }
  return lower;
}


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

/** What a code point is to a word's edge: part of a word (a letter, a digit, `_`), a joiner (`.`, `-`, `/`) or neither. */
const WORD = 1;
const JOINS = 2;
const NEITHER = 0;

/** {@link edgeOf} for ASCII, from a table: most texts are ASCII. */
const ASCII_EDGE = Uint8Array.from({ length: 0x80 }, (_, code) =>
  code === 0x5f || isLetterOrNumberCode(code) ? WORD : code === 0x2e || code === 0x2d || code === 0x2f ? JOINS : NEITHER,
);

function edgeOf(code: number): number {
  if (code < 0x80) return ASCII_EDGE[code] as number;
  return isLetterOrNumberCode(code) ? WORD : NEITHER;
}

/** No word ends right before `at`: neither a letter, digit or `_`, nor a letter or digit joined by `.`, `-` or `/`. */
function startsWord(text: string, at: number): boolean {
  if (at === 0) return true;
  const edge = edgeOf(codePointBefore(text, at));
  if (edge !== JOINS) return edge === NEITHER;
  return at < 2 || !isLetterOrNumberCode(codePointBefore(text, at - 1));
}

/** No word goes on at `at`: neither a letter, digit or `_`, nor `.`, `-` or `/` joining a letter or digit. */
function endsWord(text: string, at: number): boolean {
  if (at >= text.length) return true;
  const edge = edgeOf(text.codePointAt(at) as number);
  if (edge !== JOINS) return edge === NEITHER;
  return at + 1 >= text.length || !isLetterOrNumberCode(text.codePointAt(at + 1) as number);
}

/**
 * A trie's edges, `(node, code unit) → child`, in an open-addressing hash table of typed arrays: built once,
 * then read at almost every position of every text scanned, where a `Map` of numbers costs several times more.
 */
class EdgeTable {
  readonly #nodes: Int32Array;
  readonly #codes: Uint16Array;
  readonly #children: Int32Array;
  readonly #mask: number;

  /** @param edges - `[node, code unit, child]` triples, each `(node, code unit)` once. */
  constructor(edges: ReadonlyArray<readonly [number, number, number]>) {
    let size = 16;
    while (size < edges.length * 2) size *= 2;
    this.#mask = size - 1;
    this.#nodes = new Int32Array(size).fill(-1);
    this.#codes = new Uint16Array(size);
    this.#children = new Int32Array(size);
    for (const [node, code, child] of edges) {
      let slot = EdgeTable.#hash(node, code) & this.#mask;
      while (this.#nodes[slot] !== -1) slot = (slot + 1) & this.#mask;
      this.#nodes[slot] = node;
      this.#codes[slot] = code;
      this.#children[slot] = child;
    }
  }

  static #hash(node: number, code: number): number {
    return Math.imul(node, 0x9e3779b1) ^ Math.imul(code, 0x85ebca6b);
  }

  /** The child of `node` by `code`, or -1. */
  child(node: number, code: number): number {
    let slot = EdgeTable.#hash(node, code) & this.#mask;
    for (;;) {
      const found = this.#nodes[slot] as number;
      if (found === -1) return -1;
      if (found === node && this.#codes[slot] === code) return this.#children[slot] as number;
      slot = (slot + 1) & this.#mask;
    }
  }
}

/**
 * Cues of several kinds in one trie; {@link CueTrie.scan} gives the kinds a text holds as bits. Compact:
 * one table of edges keyed by node and character, and the kinds ending at each node in typed arrays, so a
 * worker with a bounded heap holds every language's cues in well under a megabyte.
 */
export class CueTrie {
  /** `(node, code unit)` → child node; node 0 is the root. */
  readonly #edges: EdgeTable;
  #whole: Uint32Array;
  #prefix: Uint32Array;
  #anywhere: Uint32Array;
  /** First code units (lowercase) of the cues that match anywhere: ASCII ones by index, the others in a set. */
  #anywhereAscii = new Uint8Array(0x80);
  #anywhereOther = new Set<number>();
  /** The root's child by ASCII code unit, -1 for none: most look-ups start at the root, and most texts are ASCII. */
  readonly #rootAscii = new Int32Array(0x80).fill(-1);
  /** Kinds of the texts scanned lately, oldest first (a copy of each text is the key). */
  readonly #memo = new Map<string, number>();

  /**
   * @param cues - each literal with its kind's bit and its shape; letters are matched case-insensitively.
   */
  constructor(cues: ReadonlyArray<{ literal: string; bit: number; shape: CueShape }>) {
    const edges = new Map<number, number>();
    const whole: number[] = [0];
    const prefix: number[] = [0];
    const anywhere: number[] = [0];
    for (const { literal, bit, shape } of cues) {
      let at = 0;
      const lower = literal.toLowerCase();
      for (let index = 0; index < lower.length; index++) {
        const key = at * 0x10000 + lower.charCodeAt(index);
        let next = edges.get(key);
        if (next === undefined) {
          next = whole.length;
          whole.push(0);
          prefix.push(0);
          anywhere.push(0);
          edges.set(key, next);
        }
        at = next;
      }
      const first = lower.charCodeAt(0);
      if (shape === 'anywhere' && first < 0x80) this.#anywhereAscii[first] = 1;
      else if (shape === 'anywhere') this.#anywhereOther.add(first);
      if (shape === 'whole') whole[at] = (whole[at] as number) | bit;
      else if (shape === 'prefix') prefix[at] = (prefix[at] as number) | bit;
      else anywhere[at] = (anywhere[at] as number) | bit;
    }
    this.#edges = new EdgeTable([...edges].map(([key, child]) => [Math.floor(key / 0x10000), key % 0x10000, child] as const));
    for (let code = 0; code < 0x80; code++) this.#rootAscii[code] = this.#edges.child(0, code);
    this.#whole = Uint32Array.from(whole);
    this.#prefix = Uint32Array.from(prefix);
    this.#anywhere = Uint32Array.from(anywhere);
  }

  #startsAnywhereCue(code: number): boolean {
    return code < 0x80 ? this.#anywhereAscii[code] === 1 : this.#anywhereOther.size > 0 && this.#anywhereOther.has(code);
  }

  /**
   * The kinds of the cues that start at `start`, whose lowercase first unit is `first`; -1 when a letter
   * on the way lowercases to more than one character.
   *
   * @param wordStart - whether no word ends before `start`; `null` when not yet known.
   */
  #walk(text: string, start: number, first: number, wordStart: boolean | null): number {
    let at = first < 0x80 ? (this.#rootAscii[first] as number) : this.#edges.child(0, first);
    if (at === -1) return 0;
    let kinds = 0;
    let startChecked = wordStart;
    let end = start + 1;
    for (;;) {
      kinds |= this.#anywhere[at] as number;
      const whole = this.#whole[at] as number;
      const prefix = this.#prefix[at] as number;
      if (whole | prefix) {
        startChecked ??= startsWord(text, start);
        if (startChecked) {
          kinds |= prefix;
          if (whole && endsWord(text, end)) kinds |= whole;
        }
      }
      if (end >= text.length) return kinds;
      const code = lowerCode(text.charCodeAt(end));
      if (code === -1) return -1;
      const next = this.#edges.child(at, code);
      if (next === -1) return kinds;
      at = next;
      end++;
    }
  }

  /**
   * The kinds whose cues start the text, as bits; `null` where {@link CueTrie.scan} would be.
   *
   * @param text - any text.
   */
  opening(text: string): number | null {
    if (text.length === 0) return 0;
    const first = lowerCode(text.charCodeAt(0));
    if (first === -1) return null;
    const kinds = this.#walk(text, 0, first, true);
    return kinds === -1 ? null : kinds;
  }

  /**
   * The kinds whose cues the text holds, as bits; `null` when a letter of the text lowercases to more
   * than one character (a few such as `İ`), where the caller asks its exact expression instead.
   * Letters are lowercased one at a time: the text is never copied, whatever its size.
   *
   * @param text - any text.
   */
  scan(text: string): number | null {
    const remembered = text.length <= MEMO_CHARS ? this.#memo.get(text) : undefined;
    if (remembered !== undefined) return remembered;
    const root = this.#rootAscii;
    const anywhereAscii = this.#anywhereAscii;
    let kinds = 0;
    // Whether the code unit before `start` is an ASCII letter, digit or `_`, so that no word starts at `start`:
    // most positions of most texts, passed over here without reading the text again.
    let afterWord = false;
    for (let start = 0; start < text.length; start++) {
      const code = text.charCodeAt(start);
      if (code < 0x80) {
        const inWord = afterWord;
        afterWord = ASCII_EDGE[code] === WORD;
        const lower = code >= 0x41 && code <= 0x5a ? code + 0x20 : code;
        // No cue starts with this character, or only whole words and prefixes do and a word goes on here.
        if (root[lower] === -1 || (inWord && anywhereAscii[lower] !== 1)) continue;
      } else afterWord = false;
      const first = lowerCode(code);
      if (first === -1) return null;
      // Inside a word only a cue that matches anywhere can start: most positions are passed over
      // without a look-up in the trie.
      const wordStart = this.#startsAnywhereCue(first) ? null : startsWord(text, start);
      if (wordStart === false) continue;
      const found = this.#walk(text, start, first, wordStart);
      if (found === -1) return null;
      kinds |= found;
    }
    // Only short texts are remembered, and as a copy: a short text is often a slice of a message, and
    // holding the slice would hold the whole message (megabytes, in a worker with a bounded heap).
    if (text.length <= MEMO_CHARS) {
      if (this.#memo.size >= MEMO_ENTRIES) this.#memo.delete(this.#memo.keys().next().value as string);
      this.#memo.set(`\u0000${text}`.slice(1), kinds);
    }
    return kinds;
  }
}
