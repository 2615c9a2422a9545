/**
 * Makes untrusted text safe to parse, count and write.
 *
 * Conversation text and tool output may hold anything a terminal or a model
 * can produce: escape sequences, control bytes, invisible direction marks,
 * half of a surrogate pair cut by a truncation. None of it carries meaning for
 * a knowledge graph, and some of it (bidi overrides) can make a note read
 * differently from what it says.
 */
import { capChars } from './char-cap.js';
import { LINE_BREAK } from './line-breaks.js';

// CSI (ESC [ … final byte), OSC (ESC ] … BEL or ST) and two-byte ESC sequences.
// Each alternative stops at the next ESC, so the scan stays linear.
const ANSI_SEQUENCE = /\u001B\[[0-?]*[ -/]*[@-~]|\u001B\][^\u0007\u001B]*(?:\u0007|\u001B\\)?|\u001B[@-Z\\-_]/g;

// C0 and C1 controls except tab, LF and CR; DEL.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;

// Direction marks, embeddings, overrides and isolates; zero-width space and BOM.
// ZWJ and ZWNJ stay: emoji sequences and several scripts need them.
const INVISIBLE = /[\u061C\u200B\u200E\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/g;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const NEEDS_WORK = /[^\t\n\r\u0020-\u007E]/;

/**
 * Combining marks kept in one run. Canonical reordering during normalization
 * is quadratic in the length of a run of marks (65,536 of them take seconds),
 * and no script needs more than a handful; Unicode's stream-safe format
 * (UAX #15) draws the line at 30.
 */
const MAX_COMBINING_RUN = 30;
const LONG_COMBINING_RUN = new RegExp(`\\p{M}{${MAX_COMBINING_RUN + 1},}`, 'gu');
const COMBINING_RUN_HEAD = new RegExp(`^\\p{M}{${MAX_COMBINING_RUN}}`, 'u');

/**
 * The two Arabic ligatures NFKC expands most, U+FDFA eighteen-fold and U+FDFB
 * eight-fold, are kept for their first 1,000 occurrences in a text and dropped
 * after: a megabyte of them expanded to 36 MB and once exhausted a worker,
 * while no other character grows more than six-fold. Normalization expands
 * them, so a second pass finds none and sanitizing stays idempotent.
 */
const MAX_EXTREME_EXPANDERS = 1_000;
const EXTREME_EXPANDER = /[\uFDFA\uFDFB]/g;

function boundExpanders(text: string): string {
  let seen = 0;
  return text.replace(EXTREME_EXPANDER, (ligature) => (++seen <= MAX_EXTREME_EXPANDERS ? ligature : ''));
}

/**
 * Lone surrogates become U+FFFD, so the text encodes to UTF-8 losslessly.
 *
 * @param text - any string.
 */
export function toWellFormedText(text: string): string {
  const native = (text as { toWellFormed?: () => string }).toWellFormed;
  return typeof native === 'function' ? native.call(text) : text.replace(LONE_SURROGATE, '\uFFFD');
}

/**
 * Sanitizes text: well-formed UTF-16, no terminal escape sequences, NFKC,
 * no control characters but tab, LF and CR, no invisible direction marks,
 * no run of more than 30 combining marks, at most 1,000 of the two ligatures
 * that expand most.
 * Idempotent: sanitizing twice gives the same text.
 *
 * @param text - conversation or tool text, as received.
 * @returns the cleaned text; plain printable ASCII comes back as is.
 */
export function sanitizeText(text: string): string {
  // Most of a transcript is plain ASCII: skip every pass for it.
  if (!NEEDS_WORK.test(text)) return text;
  let clean = toWellFormedText(text);
  if (clean.includes('\u001B')) clean = clean.replace(ANSI_SEQUENCE, '');
  // Removal comes before NFKC: an invisible mark between a letter and its
  // combining accent would otherwise block composition on the first pass only.
  clean = clean.replace(CONTROL, '').replace(INVISIBLE, '');
  // Runs are cut after removal (a mark between two runs would hide one) and before normalization.
  clean = clean.replace(LONG_COMBINING_RUN, (run) => COMBINING_RUN_HEAD.exec(run)?.[0] ?? '');
  return boundExpanders(clean).normalize('NFKC');
}

/**
 * Every run of white space, the line breaks U+2028 and U+2029 included (`\s`
 * covers them): a line break inside a one-line field lets the field open a
 * line of its own in the text around it, a heading or a `SYSTEM:` line.
 */
const WHITE_SPACE_RUN = /\s+/g;

/** Marks a text cut short; ASCII, because NFKC turns U+2026 into these three dots and a second pass must not change the text. */
const ELLIPSIS = '...';

/**
 * At most `maxChars` UTF-16 units of `text`, never ending on half of a
 * surrogate pair, ending in `...` when it was cut.
 */
function capLine(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  if (maxChars <= ELLIPSIS.length) return capChars(text, Math.max(0, maxChars));
  return `${capChars(text, maxChars - ELLIPSIS.length).trimEnd()}${ELLIPSIS}`;
}

/**
 * Text made safe to place inside one line of a log line or a prompt: sanitized
 * as {@link sanitizeText} does, every run of white space (line feeds, carriage
 * returns, tabs, U+2028, U+2029) one space, no space at either end, and at
 * most `maxChars` characters, the last an ellipsis when it was cut. Redaction
 * is the caller's (`redactedLine` in secrets.ts does both).
 * Idempotent for the same `maxChars`.
 *
 * @param text - a field a user, a model or a file supplied: a goal, an option value, an error message.
 * @param maxChars - the longest result, in UTF-16 units.
 */
export function oneLine(text: string, maxChars: number): string {
  // Never more than a few times what is kept goes through the passes (NFKC expands at most eighteen-fold).
  const head = capChars(text, 4 * maxChars + 16);
  // Breaks become spaces before sanitizing, which drops VT, FF and NEL as controls and would join the words around them.
  return capLine(sanitizeText(head.replace(LINE_BREAK, ' ')).replace(WHITE_SPACE_RUN, ' ').trim(), maxChars);
}
