/**
 * A mode's instructions that another plugin writes into the user's turn. A keyword in the prompt
 * ("search", "analyze", "ultrawork") makes oh-my-opencode put a block of orders before what the user
 * typed, in the user's own text part, set apart by a `---` line:
 *
 *     [search-mode]
 *     MAXIMIZE SEARCH EFFORT. …
 *
 *     ---
 *
 *     what the user typed
 *
 * A block is a line `[name-mode]`, up to the first `---` line, or `<name-mode>` up to its closing
 * `</name-mode>` (that form holds `---` lines of its own); several blocks may follow each other. They are
 * the plugin's words: read as the user's, they became the ask the next session was told to continue, and
 * their lines the user's problems. A text that does not open with a block costs one look at its start.
 */

/** A mode's name as the plugin writes it: lowercase words joined by hyphens, the last one `mode`. */
const MODE_NAME = '([a-z][a-z0-9]*(?:-[a-z0-9]+)*-mode)';
const BRACKET_OPENER = new RegExp(`[ \\t]*\\[${MODE_NAME}\\][ \\t]*(?:\\r?\\n|$)`, 'y');
const TAG_OPENER = new RegExp(`[ \\t]*<${MODE_NAME}>[ \\t]*(?:\\r?\\n|$)`, 'y');
const SEPARATOR_LINE = /^[ \t]*---[ \t]*$/gm;
const LEADING_GAP = /(?:[ \t]*(?:---)?[ \t]*(?:\r?\n|$))*/y;

function skipGap(text: string, from: number): number {
  LEADING_GAP.lastIndex = from;
  LEADING_GAP.exec(text);
  return Math.max(from, LEADING_GAP.lastIndex);
}

/** Where the block opening at `from` ends, or -1 when none opens there. */
function blockEnd(text: string, from: number): number {
  TAG_OPENER.lastIndex = from;
  const tag = TAG_OPENER.exec(text);
  if (tag) {
    const closing = text.indexOf(`</${tag[1]}>`, TAG_OPENER.lastIndex);
    return closing === -1 ? text.length : closing + tag[1]!.length + 3;
  }
  BRACKET_OPENER.lastIndex = from;
  if (!BRACKET_OPENER.exec(text)) return -1;
  SEPARATOR_LINE.lastIndex = BRACKET_OPENER.lastIndex;
  const separator = SEPARATOR_LINE.exec(text);
  return separator ? separator.index + separator[0].length : text.length;
}

/**
 * The user's text without the mode blocks another plugin put before it; the text itself when it opens
 * with none, and empty when nothing but such blocks is there.
 */
export function withoutModePreambles(text: string): string {
  let end = blockEnd(text, skipGap(text, 0));
  if (end === -1) return text;
  let start: number;
  do {
    start = skipGap(text, end);
    end = blockEnd(text, start);
  } while (end !== -1);
  return text.slice(start);
}
