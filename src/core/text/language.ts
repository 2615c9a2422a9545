/**
 * The language a message is written in, so cue words of that language can be
 * read alongside the English ones (code sessions mix languages).
 */
import { franc } from 'franc-min';
import { LRUCache } from 'lru-cache';

/** Characters of prose the detector reads: a few sentences tell a language apart as well as a page. */
const SAMPLE_CHARS = 400;
/** Characters read when the text is plain ASCII: its language shows in fewer words. */
const ASCII_SAMPLE_CHARS = 200;
/**
 * The languages told apart: those with cue sets and the other languages most written in code sessions.
 * Comparing against a few dozen profiles instead of all of them keeps detection cheap and stops short
 * technical prose being taken for a neighbouring small language.
 */
export const DETECTED_LANGUAGES: readonly string[] = [
  'eng', 'spa', 'deu', 'fra', 'por', 'cmn', 'jpn', 'ita', 'nld', 'pol', 'rus', 'ukr', 'tur', 'kor', 'vie', 'ind',
];
/** Letters below which a message (`ok`, `continua`) says nothing about its language. */
const MIN_LETTERS = 24;

/** Inline code, URLs, paths and identifiers: shared by every language, they only blur the guess. */
const NOT_PROSE_WORD = /[`/\\_=<>{}()[\]]|\.\w|^https?:/;

/** English function words: common enough that plain English prose is told apart without a trigram model. */
const ENGLISH_WORDS: ReadonlySet<string> = new Set(
  [
    'the to and of is in for it this that with on be are was not you we i can as if or at by from will',
    // Words no other detected language writes: English prose full of names and code still reaches the share.
    "because have has into but then now should would must which what when there they them these those been were does did it's don't let's",
  ].join(' ').split(' '),
);
/** Share of English function words from which a text is English. */
const ENGLISH_SHARE = 0.2;

function looksEnglish(words: readonly string[]): boolean {
  let hits = 0;
  for (const word of words) if (ENGLISH_WORDS.has(word.toLowerCase())) hits++;
  return words.length >= 6 && hits / words.length >= ENGLISH_SHARE;
}

function proseWords(text: string): string {
  return text
    .split(/\s+/)
    .filter((word) => !NOT_PROSE_WORD.test(word))
    .join(' ');
}

/**
 * ISO 639-3 code of the language of a text, `und` when it is too short or unknown.
 *
 * Only the first {@link SAMPLE_CHARS} characters are read, without inline code, URLs and paths,
 * so the cost does not grow with the message.
 *
 * @param text - sanitized prose, fenced code already removed or not.
 */
export function detectLanguage(text: string): string {
  const sample = proseWords(text.slice(0, SAMPLE_CHARS));
  // Sessions repeat their short turns (`continue`, a retried request, a template): each sample is judged once.
  const known = languageCache.get(sample);
  if (known !== undefined) return known;
  const language = languageOfSample(sample);
  languageCache.set(sample, language);
  return language;
}

/** Samples whose language is remembered (each at most {@link SAMPLE_CHARS} characters). */
const LANGUAGE_CACHE_SIZE = 256;
const languageCache = new LRUCache<string, string>({ max: LANGUAGE_CACHE_SIZE });

function languageOfSample(sample: string): string {
  // Most of a coding session is English; the trigram model is kept for the rest, on a shorter sample
  // when the text has no letter outside ASCII.
  const ascii = /^[\x00-\x7f]*$/.test(sample);
  if (looksEnglish(sample.split(' '))) return 'eng';
  if (!ascii && /[\u3040-\u30ff]/.test(sample)) return 'jpn';
  if (!ascii && /[\u4e00-\u9fff]/.test(sample) && !/[\uac00-\ud7af]/.test(sample)) return 'cmn';
  let letters = 0;
  for (const char of sample) {
    if (/\p{L}/u.test(char)) letters++;
    if (letters >= MIN_LETTERS) break;
  }
  if (letters < MIN_LETTERS) return 'und';
  try {
    return franc(ascii ? sample.slice(0, ASCII_SAMPLE_CHARS) : sample, { minLength: MIN_LETTERS, only: [...DETECTED_LANGUAGES] });
  } catch {
    // The detector is a library reading arbitrary text: a failure means "unknown", never a failed analysis.
    return 'und';
  }
}
