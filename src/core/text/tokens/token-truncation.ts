/**
 * Cutting text to a token budget: the longest prefix that counts at most
 * the budget, found without decoding token ids and reading only as much of
 * the text as the budget needs.
 */
import { codePointCut, countUpTo, MAX_PIECE_CHARS, pieceEnd, type Encoder } from './token-pieces.js';
import { encoderFor, type TokenEncoding } from './tokens.js';

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
