/**
 * Sentences cut where a stop and a space end them: the same pieces as
 * `String.prototype.split` with `/(?<=[.!?])\s+/` or, with full-width stops,
 * `/(?<=[.!?])\s+|(?<=[。！？])/u`, found without a lookbehind. JavaScriptCore
 * (OpenCode's Bun) runs those lookbehinds many times slower than this scan, and
 * even V8 runs them slower.
 */

/**
 * Abbreviations whose full stop ends no sentence ("e.g. a cache", "vs. the old one", German "z. B."
 * is two words and stays cut), read from the few characters before a stop.
 */
const ABBREVIATION_BEFORE_STOP = /(?:^|[\s(\[,;:])(?:e\.g|i\.e|etc|vs|cf|approx|resp|incl|bzw|usw|ca|p\.ej|p\. ?ej)$/i;

/** How far back a stop looks for an abbreviation. */
const ABBREVIATION_LOOKBACK = 8;

/** A stop and the whitespace after it; with full-width stops, also each of those. */
const STOP_SPACE = /[.!?]\s+/g;
const STOP_SPACE_OR_FULL_WIDTH = /[.!?]\s+|[。！？]/g;

/**
 * The text cut after each `.`, `!` or `?` that a run of whitespace follows, the run dropped (not after
 * the full stop of an abbreviation such as "e.g." or "vs."); with
 * `fullWidth`, also right after each `。`, `！` or `？` not at the end. A text that ends with such a run
 * gives an empty last piece, as `split` does.
 *
 * @param text - any text.
 * @param fullWidth - whether full-width stops end sentences too.
 */
export function splitAfterStops(text: string, fullWidth: boolean): string[] {
  const stops = fullWidth ? STOP_SPACE_OR_FULL_WIDTH : STOP_SPACE;
  const pieces: string[] = [];
  let start = 0;
  stops.lastIndex = 0;
  for (let match = stops.exec(text); match !== null; match = stops.exec(text)) {
    const cut = match.index + 1;
    if (match[0].length === 1) {
      // A full-width stop: the sentence ends right after it, and nothing is dropped.
      if (cut === text.length) break;
      pieces.push(text.slice(start, cut));
      start = cut;
    } else {
      // "e.g. " ends no sentence: the text runs on into the next piece.
      if (match[0][0] === '.' && ABBREVIATION_BEFORE_STOP.test(text.slice(Math.max(start, match.index - ABBREVIATION_LOOKBACK), match.index))) continue;
      pieces.push(text.slice(start, cut));
      start = match.index + match[0].length;
    }
  }
  pieces.push(text.slice(start));
  return pieces;
}
