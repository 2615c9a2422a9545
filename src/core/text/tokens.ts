/**
 * Exact token counts for budgets, with the o200k_base and cl100k_base
 * encodings of gpt-tokenizer.
 *
 * The tokenizer's byte-pair merge is quadratic inside one pre-token, so one
 * long unbroken run (100k CJK characters, `=`, emoji, letters or spaces) can
 * take up to a minute. Text is therefore counted in pieces of at most
 * {@link MAX_PIECE_CHARS}, cut only where the tokenizer splits anyway:
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
 * text. A hard cut can move it by about one token per cut (measured on 20k
 * random letters, CJK, emoji and `=-_*#` runs: 0–4 tokens over 19 cuts, under
 * 0.05 %), so such text gets an approximate but bounded count. That count is
 * still one number for every caller: it depends on the text alone. Word
 * boundaries split the text into independent runs and each run is cut from its
 * own start, which is what lets {@link fitLines} count incrementally and still
 * agree with {@link countTokens} to the token.
 */
import * as o200k from 'gpt-tokenizer/encoding/o200k_base';
import * as cl100k from 'gpt-tokenizer/encoding/cl100k_base';
import { CL100K_TOKEN_SPLIT_REGEX, O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';

/** The tokenizer encodings budgets are counted in. */
export type TokenEncoding = 'o200k_base' | 'cl100k_base';

/**
 * Largest piece handed to the tokenizer at once. Counting 100k characters of CJK
 * in pieces of 256–1,024 took 10–15 ms, of 2,048 28 ms and of 4,096 92 ms (Node 20);
 * `=`, emoji, letters and spaces were 2–5 times cheaper. Prose has a word boundary
 * every few characters, so a larger piece would buy nothing.
 */
const MAX_PIECE_CHARS = 1_024;
/** Characters past a candidate cut that must be visible before a pre-token end is trusted (longest lookahead: `'ll`). */
const LOOKAHEAD_CHARS = 16;

interface Encoder {
  readonly count: (text: string) => number;
  readonly splitPattern: RegExp;
}

// Special-token text such as `<|endoftext|>` is counted as the plain text it is; by default the tokenizer throws on it.
const asText = () => ({ disallowedSpecial: new Set<string>() });

const ENCODERS: Readonly<Record<TokenEncoding, Encoder>> = Object.freeze({
  o200k_base: Object.freeze({ count: (text: string) => o200k.countTokens(text, asText()), splitPattern: O200K_TOKEN_SPLIT_REGEX }),
  cl100k_base: Object.freeze({ count: (text: string) => cl100k.countTokens(text, asText()), splitPattern: CL100K_TOKEN_SPLIT_REGEX }),
});

const NON_ASCII_WHITESPACE = /\s/;
const NON_ASCII_LETTER_OR_NUMBER = /^[\p{L}\p{N}]/u;

function encoderFor(encoding: TokenEncoding): Encoder {
  const encoder = (ENCODERS as Record<string, Encoder | undefined>)[encoding];
  if (encoder === undefined) throw new TypeError(`encoding must be 'o200k_base' or 'cl100k_base', got ${String(encoding)}`);
  return encoder;
}

/**
 * The tokenizer encoding of a model.
 *
 * @param modelId - the model's id, with or without a provider prefix (`openai/gpt-4-turbo`); `undefined` when unknown.
 * @returns `cl100k_base` for GPT-3.5, GPT-4 and GPT-4 Turbo (not GPT-4o, 4.1 or 4.5), the `text-embedding-3`
 *   and `ada-002` embeddings and `babbage-002`/`davinci-002`; `o200k_base` for everything else, the encoding of current models.
 */
export function encodingForModel(modelId: string | undefined): TokenEncoding {
  const model = (modelId ?? '').trim().toLowerCase().split('/').pop() ?? '';
  const isCl100k =
    /^gpt-3\.?5(?![\d.])/.test(model) ||
    /^gpt-4(?:$|-)/.test(model) ||
    /^text-embedding-(?:3-|ada-002)/.test(model) ||
    /^(?:babbage|davinci)-002$/.test(model);
  return isCl100k ? 'cl100k_base' : 'o200k_base';
}

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

/** The last word boundary in `[from, to]`, or -1. */
function lastWordBoundary(text: string, from: number, to: number): number {
  for (let at = Math.min(to, text.length - 2); at >= Math.max(from, 1); at--) {
    if (text.charCodeAt(at) === 0x20 && isWordBoundary(text, at)) return at;
  }
  return -1;
}

/** Moves `at` back by one when it would split a surrogate pair. */
function codePointCut(text: string, at: number): number {
  const low = text.charCodeAt(at);
  const high = text.charCodeAt(at - 1);
  return low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff ? at - 1 : at;
}

/** End of the next piece of a stretch without word boundaries that starts at `start` and is longer than a piece. */
function longRunCut(text: string, start: number, encoder: Encoder): number {
  const window = text.slice(start, start + MAX_PIECE_CHARS + LOOKAHEAD_CHARS);
  let cut = 0;
  for (const match of window.matchAll(encoder.splitPattern)) {
    const end = match.index + match[0].length;
    if (end > MAX_PIECE_CHARS) break;
    if (!isWhitespaceAt(window, end - 1)) cut = end;
  }
  return cut > 0 ? start + cut : codePointCut(text, start + MAX_PIECE_CHARS);
}

/** End of the piece that starts at `start`. */
function pieceEnd(text: string, start: number, encoder: Encoder): number {
  if (text.length - start <= MAX_PIECE_CHARS) return text.length;
  const boundary = lastWordBoundary(text, start + 1, start + MAX_PIECE_CHARS);
  return boundary > 0 ? boundary : longRunCut(text, start, encoder);
}

/** Counts piece by piece and stops once the count exceeds `limit` (the result is then some value above it). */
function countUpTo(text: string, limit: number, encoder: Encoder): number {
  let total = 0;
  for (let start = 0; start < text.length && total <= limit; ) {
    const end = pieceEnd(text, start, encoder);
    total += encoder.count(start === 0 && end === text.length ? text : text.slice(start, end));
    start = end;
  }
  return total;
}

/**
 * Counts the tokens of `text` exactly as the model's tokenizer does (see the module note for hard-cut runs).
 *
 * @param text - any text; special-token text like `<|endoftext|>` is counted as ordinary characters.
 * @param encoding - the tokenizer. @default 'o200k_base'
 */
export function countTokens(text: string, encoding: TokenEncoding = 'o200k_base'): number {
  return countUpTo(text, Number.POSITIVE_INFINITY, encoderFor(encoding));
}

/**
 * Whether `text` fits in `budget` tokens; stops counting as soon as it does not.
 *
 * @param text - the text to measure.
 * @param budget - the most tokens allowed; negative or `NaN` never fits.
 * @param encoding - the tokenizer. @default 'o200k_base'
 */
export function isWithinTokens(text: string, budget: number, encoding: TokenEncoding = 'o200k_base'): boolean {
  if (!(budget >= 0)) return false;
  return countUpTo(text, budget, encoderFor(encoding)) <= budget;
}

/**
 * Characters of the longest prefix of `piece` that counts at most `tokens`, by bisection on its length.
 * Token ids are never decoded: gpt-tokenizer 4.0.0 decodes through one shared streaming `TextDecoder`, so a
 * decode that ends inside a character leaks its bytes into the next decode anywhere in the thread.
 */
function prefixWithinTokens(piece: string, tokens: number, encoder: Encoder): number {
  if (tokens <= 0) return 0;
  let fits = 0;
  let overflows = piece.length + 1;
  while (overflows - fits > 1) {
    const middle = (fits + overflows) >>> 1;
    if (encoder.count(piece.slice(0, middle)) <= tokens) fits = middle;
    else overflows = middle;
  }
  return codePointCut(piece, fits);
}

/** `text` without about its last `excess` tokens, looking only at its tail; always shorter than `text`. */
function dropTrailingTokens(text: string, excess: number, encoder: Encoder): string {
  const tailStart = codePointCut(text, Math.max(0, text.length - MAX_PIECE_CHARS));
  const tail = text.slice(tailStart);
  let keptChars = prefixWithinTokens(tail, encoder.count(tail) - excess, encoder);
  if (keptChars >= tail.length) keptChars = codePointCut(tail, tail.length - 1);
  return text.slice(0, tailStart + keptChars);
}

/**
 * The longest prefix of `text` that counts at most `budget` tokens (as {@link countTokens} counts), so it
 * ends where the next token would start. Reads only as much of `text` as the budget needs: whole pieces
 * while they fit, then a bisection inside the piece that overflows.
 *
 * @param text - the text to cut; the result is always a prefix of it.
 * @param budget - the most tokens kept; 0, negative or `NaN` gives `''`.
 * @param encoding - the tokenizer. @default 'o200k_base'
 * @returns the prefix; never ends in half of a character.
 */
export function truncateToTokens(text: string, budget: number, encoding: TokenEncoding = 'o200k_base'): string {
  const encoder = encoderFor(encoding);
  const limit = Math.floor(budget);
  if (!(limit >= 1)) return '';
  let used = 0;
  let end = 0;
  while (end < text.length) {
    const next = pieceEnd(text, end, encoder);
    const piece = text.slice(end, next);
    const tokens = encoder.count(piece);
    if (used + tokens > limit) {
      end += prefixWithinTokens(piece, limit - used, encoder);
      break;
    }
    used += tokens;
    end = next;
  }
  let kept = end === text.length ? text : text.slice(0, end);
  // A prefix can be cut into pieces differently than the whole text; shrink until its own count fits.
  for (let excess = countUpTo(kept, Infinity, encoder) - limit; excess > 0; excess = countUpTo(kept, Infinity, encoder) - limit) {
    kept = dropTrailingTokens(kept, excess, encoder);
  }
  return kept;
}

/**
 * A count in progress: `settled` tokens up to a word boundary or run cut, plus the `open` text after it,
 * which later text can still change. `settled + countTokens(open)` equals `countTokens` of the whole text.
 */
interface Tally {
  readonly settled: number;
  readonly open: string;
}

/** The tally after appending `addition`, or `null` once it is certainly over `limit`. */
function extendTally(tally: Tally, addition: string, limit: number, encoder: Encoder): Tally | null {
  let settled = tally.settled;
  let open = tally.open + addition;
  // The old open text has no word boundary inside it; only its last character can have become one.
  const boundary = lastWordBoundary(open, Math.max(1, tally.open.length - 1), open.length - 2);
  if (boundary > 0) {
    settled += countUpTo(open.slice(0, boundary), limit - settled, encoder);
    open = open.slice(boundary);
  }
  // Once a piece's window is fully visible its cut is final, so long boundary-free runs settle as they grow.
  while (settled <= limit && open.length > MAX_PIECE_CHARS + LOOKAHEAD_CHARS) {
    const cut = longRunCut(open, 0, encoder);
    settled += encoder.count(open.slice(0, cut));
    open = open.slice(cut);
  }
  return settled > limit ? null : { settled, open };
}

/**
 * Keeps whole lines, in order, while the joined text fits `budget` tokens exactly; stops at the first line
 * that does not fit. Counts the assembled text (a join can merge tokens), incrementally, so the cost is
 * linear in the text kept.
 *
 * @param lines - candidate lines, most important first.
 * @param budget - the most tokens of the whole text; negative or `NaN` keeps nothing.
 * @param settings - `header`: text put before the lines, joined like a line (`''` means none) @default '';
 *   `separator`: what joins header and lines @default '\n'; `encoding`: the tokenizer @default 'o200k_base'.
 * @returns the text, its exact token count (equal to `countTokens(text)`) and how many lines it keeps;
 *   empty text when even the header does not fit.
 */
export function fitLines(
  lines: readonly string[],
  budget: number,
  settings: { header?: string; separator?: string; encoding?: TokenEncoding } = {},
): { text: string; tokens: number; kept: number } {
  const encoder = encoderFor(settings.encoding ?? 'o200k_base');
  const header = settings.header ?? '';
  const separator = settings.separator ?? '\n';
  const limit = Math.floor(budget);
  const nothing = { text: '', tokens: 0, kept: 0 };
  if (!(limit >= 0)) return nothing;
  let tally = extendTally({ settled: 0, open: '' }, header, limit, encoder);
  let tokens = tally === null ? limit + 1 : tally.settled + countUpTo(tally.open, limit - tally.settled, encoder);
  if (tally === null || tokens > limit) return nothing;
  let kept = 0;
  for (const line of lines) {
    const joiner = kept > 0 || header !== '' ? separator : '';
    const next = extendTally(tally, joiner + line, limit, encoder);
    if (next === null) break;
    const nextTokens = next.settled + countUpTo(next.open, limit - next.settled, encoder);
    if (nextTokens > limit) break;
    tally = next;
    tokens = nextTokens;
    kept++;
  }
  const parts = lines.slice(0, kept);
  return { text: (header !== '' ? [header, ...parts] : parts).join(separator), tokens, kept };
}
