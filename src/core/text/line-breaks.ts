/**
 * Line breaks as every reader of the text sees them. Stored text (a summary,
 * a note, a frames file) is quoted line by line into another session's system
 * text; a break the quoting does not split on but the model, a terminal or a
 * markdown reader honours would let the stored text open a line of its own —
 * a heading, a `SYSTEM:` line. So every reader here splits on all of them:
 * CRLF, LF, a lone CR, VT, FF, NEL (U+0085), and the Unicode line and
 * paragraph separators (U+2028, U+2029).
 */

/** The characters that end a line for some reader (CRLF is CR then LF). */
export const LINE_BREAK_CHARACTERS = '\n\u000B\u000C\r\u0085\u2028\u2029';

/** One line break: CRLF counts once. Global, for `replace`; `split` ignores the flag. */
export const LINE_BREAK = /\r\n|[\n\u000B\u000C\r\u0085\u2028\u2029]/g;

/**
 * The text with every line break of {@link LINE_BREAK_CHARACTERS} (CRLF as one) made a line feed: code
 * that splits on `\n` afterwards, or a sanitizer that drops VT, FF and NEL as controls, then sees the
 * same lines as every other reader.
 *
 * @param text - any text.
 */
export function normalizeLineBreaks(text: string): string {
  return text.replace(LINE_BREAK, '\n');
}

/**
 * The lines of `text`, split on every line break (CRLF once); the breaks themselves are dropped.
 *
 * @param text - any text.
 * @returns at least one line; `''` gives `['']`.
 */
export function splitLines(text: string): string[] {
  return text.split(LINE_BREAK);
}
