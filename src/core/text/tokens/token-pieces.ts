/**
 * Where text is cut for counting. The tokenizer's byte-pair merge is
 * quadratic inside one pre-token, so one long unbroken run (100k CJK
 * characters, `=`, emoji, letters or spaces) can take up to a minute. Text is
 * therefore counted in pieces of at most {@link MAX_PIECE_CHARS}, cut only
 * where the tokenizer splits anyway:
 *
 * 1. a word boundary, the space in `foo| bar` (a space after a non-space and
 *    before a letter or digit), which is where every pre-token split rule of
 *    both encodings starts a new pre-token;
 * 2. inside a stretch without word boundaries (minified JSON, paths, `a=1,b=2`),
 *    the end of a pre-token found by the tokenizer's own split pattern, when a
 *    non-space character precedes it and {@link LOOKAHEAD_CHARS} more characters
 *    were visible, so nothing later could have moved it;
 * 3. only a single pre-token longer than a piece (the hazards above) is cut
 *    hard, between two code points.
 *
 * Cuts 1 and 2 keep the count exactly what gpt-tokenizer gives for the whole
 * text. A hard cut can move it by about one token per cut, so such text gets
 * an approximate but bounded count. That count is
 * still one number for every caller: it depends on the text alone. Word
 * boundaries split the text into independent runs and each run is cut from its
 * own start, which is what lets `fitLines` count incrementally and still
 * agree with `countTokens` to the token.
 */

/**
 * Largest piece handed to the tokenizer at once: past about a thousand
 * characters, the tokenizer's cost per character grows with the piece (CJK most,
 * `=`, emoji, letters and spaces less). Prose has a word boundary every few
 * characters, so a larger piece would buy nothing.
 */
export const MAX_PIECE_CHARS = 1_024;
/** Characters past a candidate cut that must be visible before a pre-token end is trusted (longest lookahead: `'ll`). */
export const LOOKAHEAD_CHARS = 16;

/** What cutting and counting need of a tokenizer: its count, and the pattern it splits pre-tokens with. */
export interface Encoder {
  readonly count: (text: string) => number;
  readonly splitPattern: RegExp;
}

const NON_ASCII_WHITESPACE = /\s/;
const NON_ASCII_LETTER_OR_NUMBER = /^[\p{L}\p{N}]/u;

function isWhitespaceAt(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  if (code < 0x80) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  return NON_ASCII_WHITESPACE.test(text.charAt(index));
}

function isLetterOrNumberAt(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  if (Number.isNaN(code)) return false;
  if (code < 0x80) return (code >= 0x30 && code <= 0x39) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a);
  return NON_ASCII_LETTER_OR_NUMBER.test(text.slice(index, index + 2));
}

/** Whether `at` is a word boundary (`foo| bar`): a pre-token starts there in both encodings. */
function isWordBoundary(text: string, at: number): boolean {
  return text.charCodeAt(at) === 0x20 && at > 0 && !isWhitespaceAt(text, at - 1) && isLetterOrNumberAt(text, at + 1);
}

/**
 * The last word boundary in `[from, to]`, or -1.
 *
 * @param text - the text searched.
 * @param from - the first index that may be returned.
 * @param to - the last index that may be returned.
 */
export function lastWordBoundary(text: string, from: number, to: number): number {
  for (let at = Math.min(to, text.length - 2); at >= Math.max(from, 1); at--) {
    if (text.charCodeAt(at) === 0x20 && isWordBoundary(text, at)) return at;
  }
  return -1;
}

/**
 * Moves `at` back by one when it would split a surrogate pair.
 *
 * @param text - the text to cut.
 * @param at - the index the cut would fall on.
 */
export function codePointCut(text: string, at: number): number {
  const low = text.charCodeAt(at);
  const high = text.charCodeAt(at - 1);
  return low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff ? at - 1 : at;
}

/**
 * End of the next piece of a stretch without word boundaries that starts at `start` and is longer than a piece:
 * the last pre-token end that is final (cut 2 of the module note), else a hard cut (cut 3).
 *
 * @param text - the text.
 * @param start - where the stretch's next piece starts.
 * @param encoder - the tokenizer whose split pattern finds the pre-tokens.
 */
export function longRunCut(text: string, start: number, encoder: Encoder): number {
  const window = text.slice(start, start + MAX_PIECE_CHARS + LOOKAHEAD_CHARS);
  let cut = 0;
  for (const match of window.matchAll(encoder.splitPattern)) {
    const end = match.index + match[0].length;
    if (end > MAX_PIECE_CHARS) break;
    if (!isWhitespaceAt(window, end - 1)) cut = end;
  }
  return cut > 0 ? start + cut : codePointCut(text, start + MAX_PIECE_CHARS);
}

/**
 * End of the piece that starts at `start`.
 *
 * @param text - the text.
 * @param start - where the piece starts.
 * @param encoder - the tokenizer the pieces are for.
 */
export function pieceEnd(text: string, start: number, encoder: Encoder): number {
  if (text.length - start <= MAX_PIECE_CHARS) return text.length;
  const boundary = lastWordBoundary(text, start + 1, start + MAX_PIECE_CHARS);
  return boundary > 0 ? boundary : longRunCut(text, start, encoder);
}

/**
 * Counts piece by piece and stops once the count exceeds `limit` (the result is then some value above it).
 *
 * @param text - the text to count.
 * @param limit - past this, counting stops; `Infinity` counts it all.
 * @param encoder - the tokenizer.
 */
export function countUpTo(text: string, limit: number, encoder: Encoder): number {
  let total = 0;
  for (let start = 0; start < text.length && total <= limit; ) {
    const end = pieceEnd(text, start, encoder);
    total += encoder.count(start === 0 && end === text.length ? text : text.slice(start, end));
    start = end;
  }
  return total;
}
