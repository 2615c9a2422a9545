/**
 * Whole lines kept while their joined text fits a token budget, counted
 * incrementally: only the text after the last word boundary or run cut is
 * counted again as lines are added, so the cost is linear in what is kept.
 */
import { countUpTo, lastWordBoundary, LOOKAHEAD_CHARS, longRunCut, MAX_PIECE_CHARS, type Encoder } from './tokens/token-pieces.js';
import { encoderFor, type TokenEncoding } from './tokens/tokens.js';

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
