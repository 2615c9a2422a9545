/**
 * Keyphrases of English prose: runs of content words between function words
 * and punctuation (the RAKE reading of a text), one to three words long.
 *
 * A part-of-speech tagger (retext-pos) reads nouns better, but costs about a
 * millisecond per kilobyte: over every message of a 10 MB session that is
 * seconds, against a budget of half a second. Splitting on a stop list is one
 * linear pass, and the conversation-wide ranking (spread over messages) does
 * the rest of the work a tagger would.
 */
import { ENGLISH_MARKERS, ENGLISH_STOP_WORDS, GENERIC_TERMS } from '../../text/generic-words.js';

/** Longest phrase kept, in words: longer runs are titles and lists, not topics. */
export const MAX_PHRASE_WORDS = 3;

/** A phrase and how often the text names it. */
export interface Keyphrase {
  /** Lowercase words joined by single spaces. */
  phrase: string;
  count: number;
}

// A word: letters first, then letters, digits and inner hyphens or apostrophes.
const ASCII_WORD = /^[a-z][a-z0-9]*(?:['-][a-z0-9]+)*$/;
const WORD = /^\p{L}[\p{L}\p{N}]*(?:['-][\p{L}\p{N}]+)*$/u;
const NON_LATIN_LETTER = /[^\p{Script=Latin}\P{L}]/u;
// Marks that may lead or trail a word in a sentence; any other mark inside a word makes it no word.
const LEADING = /^[("'“‘«[{*_]+/;
const TRAILING = /[)"'”’»\]}*_.,;:!?…]+$/;
const MIN_WORD_CHARS = 3;
const MAX_WORD_CHARS = 30;
/** Words read before the text is judged English or not. */
const JUDGED_WORDS = 60;

/**
 * Whether a text reads as English: enough of its words are English function
 * words. Texts in other languages give no keyphrases (their topics still come
 * from the names of technologies and files).
 *
 * @param words - the text's words, lowercase.
 */
export function readsAsEnglish(words: readonly string[]): boolean {
  if (words.length === 0) return false;
  let markers = 0;
  for (const word of words) if (ENGLISH_MARKERS.has(word)) markers++;
  // A short request ("add a theme toggle") has one marker; a paragraph has one in every few words.
  return markers >= 1 && markers * 12 >= words.length;
}

function isAsciiLetter(code: number): boolean {
  return code >= 0x61 && code <= 0x7a;
}

function isWord(word: string): boolean {
  if (ASCII_WORD.test(word)) return true;
  return WORD.test(word) && !NON_LATIN_LETTER.test(word);
}

/**
 * The keyphrases of a prose text, by first appearance.
 *
 * @param prose - text without code; the caller bounds its length.
 * @param english - `true`/`false` when the language is known; `null` to judge from the first words.
 */
export function keyphrasesOf(prose: string, english: boolean | null = null): Keyphrase[] {
  if (english === false) return [];
  // Split on white space (native and fast); marks around a word end its clause.
  const raw = prose.toLowerCase().split(/\s+/);
  if (english === null && !readsAsEnglish(raw.slice(0, JUDGED_WORDS).map((word) => word.replace(TRAILING, '')))) return [];
  const counts = new Map<string, number>();
  const add = (phrase: string): void => {
    counts.set(phrase, (counts.get(phrase) ?? 0) + 1);
  };
  let run: string[] = [];
  const flush = (): void => {
    if (run.length > 0 && run.length <= MAX_PHRASE_WORDS && !run.every((word) => GENERIC_TERMS.has(word))) {
      add(run.join(' '));
      // The words of a phrase are topics of their own too ("theme" of "theme toggle").
      if (run.length > 1) for (const word of run) if (!GENERIC_TERMS.has(word)) add(word);
    }
    run = [];
  };
  for (const token of raw) {
    if (token.length === 0) continue;
    let word = token;
    // Most words start and end with a letter: the mark patterns run only when they may match.
    const lead = isAsciiLetter(word.charCodeAt(0)) ? null : LEADING.exec(word);
    if (lead) {
      flush();
      word = word.slice(lead[0].length);
    }
    const trail = word.length > 0 && !isAsciiLetter(word.charCodeAt(word.length - 1)) ? TRAILING.exec(word) : null;
    if (trail) word = word.slice(0, trail.index);
    if (word.length >= MIN_WORD_CHARS && word.length <= MAX_WORD_CHARS && !ENGLISH_STOP_WORDS.has(word) && isWord(word)) run.push(word);
    else flush();
    if (trail) flush();
  }
  flush();
  return [...counts].map(([phrase, count]) => ({ phrase, count }));
}
