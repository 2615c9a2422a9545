/**
 * Proper names in running prose: a capitalized word in the middle of a
 * sentence names something (`built with Tailwind and Zod`, `deployed on
 * Rocky Linux`), in English as in Spanish, French or Portuguese. German
 * capitalizes every noun, so its prose is not read this way.
 *
 * One pass over the words of text the caller has already capped.
 */

/** Words of one name at most: `Spring Boot Actuator`, not a title. */
const MAX_NAME_WORDS = 3;
const MAX_WORD_CHARS = 30;
// A capital then a lowercase letter: `Tailwind`, `GitHub`, `Señal`; acronyms are read elsewhere.
const NAME_WORD = /^\p{Lu}\p{Ll}[\p{L}\p{M}\p{N}]*$/u;
// `RuntimeError` is a problem's type, `False` and `None` a language's constants: neither names a topic.
const NOT_A_NAME = /(?:Error|Exception|Warning)$|^(?:True|False|None|Null|Nil|Undefined)$/;
// What may open a name inside a sentence: a parenthesis (`(Zod)`), an emphasis mark.
const OPENING = /^[(*_]+/;
const CLOSING = /[)*_.,;:!?…'"”’»\]]+$/;
// A word before a name ends in a letter, a digit, a comma or a joining sign: the sentence goes on.
const SENTENCE_GOES_ON = /[\p{L}\p{N},+&]$/u;
const LOWERCASE = /\p{Ll}/u;
const CAPITAL_START = /^[(*_"'“‘«[]*\p{Lu}/u;
// Whether a line holds a capitalized word after one that goes on: most lines hold none and are passed over.
const MAY_HOLD_NAME = /[\p{L}\p{N},+&][ \t]+[(*_]{0,2}\p{Lu}\p{Ll}/u;
/** Share of capitalized words from which a line is a title (`Root Cause Analysis`), not prose. */
const TITLE_SHARE = 0.6;

function isTitle(words: readonly string[]): boolean {
  let letters = 0;
  let capitals = 0;
  // The first word is capitalized in any sentence: only the words after it tell a title.
  let first = true;
  for (const word of words) {
    if (!/\p{L}/u.test(word.charAt(0)) && !CAPITAL_START.test(word)) continue;
    if (first) {
      first = false;
      continue;
    }
    letters++;
    if (CAPITAL_START.test(word)) capitals++;
  }
  return letters >= 2 && capitals >= letters * TITLE_SHARE;
}

/**
 * The proper names of a prose text, each as written (`Rocky Linux`), in order.
 *
 * @param prose - text without fenced code, capped by the caller.
 * @param language - ISO 639-3 code of the text; German (`deu`) gives none.
 */
export function properNames(prose: string, language: string): string[] {
  if (language === 'deu') return [];
  const found: string[] = [];
  for (const line of prose.replace(/`[^`\n]*`/g, ' , ').split('\n')) {
    if (!MAY_HOLD_NAME.test(line)) continue;
    const trimmed = line.trim();
    // Headings, table rows and lines in capitals are labels, not sentences.
    if (trimmed.startsWith('#') || trimmed.startsWith('|') || !LOWERCASE.test(trimmed)) continue;
    const words = trimmed.split(/\s+/);
    if (isTitle(words)) continue;
    let run: string[] = [];
    const flush = (): void => {
      if (run.length > 0) found.push(run.join(' '));
      run = [];
    };
    for (let index = 1; index < words.length; index++) {
      const raw = words[index] ?? '';
      const opening = OPENING.exec(raw)?.[0] ?? '';
      const closing = CLOSING.exec(raw)?.[0] ?? '';
      const core = raw.slice(opening.length, raw.length - closing.length);
      const isName = core.length <= MAX_WORD_CHARS && NAME_WORD.test(core) && !NOT_A_NAME.test(core);
      // A run goes on only over plain words; a name starts only where the sentence goes on.
      if (isName && run.length > 0 && run.length < MAX_NAME_WORDS && opening === '') run.push(core);
      else {
        flush();
        if (isName && SENTENCE_GOES_ON.test(words[index - 1] ?? '')) run.push(core);
      }
      if (closing !== '') flush();
    }
    flush();
  }
  return found;
}
