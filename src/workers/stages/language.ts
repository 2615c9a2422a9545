/**
 * The language a message is written in, so cue words of that language can be
 * read alongside the English ones (code sessions mix languages).
 */
import { franc } from 'franc-min';

/** Characters of prose the detector reads: a few sentences tell a language apart as well as a page. */
const SAMPLE_CHARS = 2_000;
/** Letters below which a message (`ok`, `continua`) says nothing about its language. */
const MIN_LETTERS = 24;

/** Inline code, URLs, paths and identifiers: shared by every language, they only blur the guess. */
const NOT_PROSE = /`[^`\n]{0,200}`|https?:\/\/\S{0,500}|\S{0,200}[/\\_.]\S{1,200}|[*#|>\-=]+/g;

/**
 * ISO 639-3 code of the language of a text, `und` when it is too short or unknown.
 *
 * Only the first {@link SAMPLE_CHARS} characters are read, without inline code, URLs and paths,
 * so the cost does not grow with the message.
 *
 * @param text - sanitized prose, fenced code already removed or not.
 */
export function detectLanguage(text: string): string {
  const sample = text.slice(0, SAMPLE_CHARS).replace(NOT_PROSE, ' ');
  let letters = 0;
  for (const char of sample) {
    if (/\p{L}/u.test(char)) letters++;
    if (letters >= MIN_LETTERS) break;
  }
  if (letters < MIN_LETTERS) return 'und';
  try {
    return franc(sample, { minLength: MIN_LETTERS });
  } catch {
    // The detector is a library reading arbitrary text: a failure means "unknown", never a failed analysis.
    return 'und';
  }
}
