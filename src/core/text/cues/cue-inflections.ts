/**
 * The inflected forms of a language's change words, so that a table lists
 * each word once: a Romance past participle agrees with its noun ("corregido",
 * "corregida", "corregidas"; "changé", "changées") and a German weak
 * participle takes adjective endings, which are also its past tense
 * ("entfernt", "entfernte", "entfernten"). Only the endings a past
 * participle takes are added; other words are left as written.
 */

/** How a language inflects a word of its change cues: the word's other forms, the word itself excluded. */
export type Inflect = (word: string) => readonly string[];

/** Spanish and Portuguese regular and common irregular participles: -ado, -ido, -ído, -ito, -cho, -to. */
const IBERIAN_PARTICIPLE = /(?:ad|id|íd|it|ch|ert|uest|elt)o$/u;

/**
 * Spanish and Portuguese: a participle in -o also ends in -a, -os and -as. Only the first word of a
 * phrase is inflected ("quitado de" → "quitada de").
 *
 * @param word - a cue as the table writes it.
 */
export const inflectIberian: Inflect = (word) => {
  const [head = '', ...rest] = word.split(' ');
  if (!IBERIAN_PARTICIPLE.test(head)) return [];
  const stem = head.slice(0, -1);
  const tail = rest.length > 0 ? ` ${rest.join(' ')}` : '';
  return ['a', 'os', 'as'].map((ending) => `${stem}${ending}${tail}`);
};

/**
 * French: a participle in -é also ends in -ée, -és and -ées ("supprimé" → "supprimées").
 *
 * @param word - a cue as the table writes it.
 */
export const inflectFrench: Inflect = (word) => {
  const [head = '', ...rest] = word.split(' ');
  if (!head.endsWith('é') || head.length < 4) return [];
  const tail = rest.length > 0 ? ` ${rest.join(' ')}` : '';
  return ['e', 's', 'es'].map((ending) => `${head}${ending}${tail}`);
};

/**
 * German: a weak participle in -t (not -tt: "statt" is no participle) also takes the endings -e and
 * -en, which make the past tense as well ("ersetzte", "entfernten"). Single words only.
 *
 * @param word - a cue as the table writes it.
 */
export const inflectGerman: Inflect = (word) => (/^\p{L}{4,}[^t\s]t$/u.test(word) ? [`${word}e`, `${word}en`] : []);

/** A Russian short passive participle's other forms: "добавлен" → "добавлена", "добавлено", "добавлены", "добавленный". */
const russianParticiple = (word: string): string[] => (/^\p{L}{3,}[её]н$/u.test(word) ? [`${word}а`, `${word}о`, `${word}ы`, `${word}н*`] : []);

/**
 * Russian: a short passive participle in -ен or -ён also ends in -а, -о and -ы, and its full form goes on
 * with -н- ("добавлен" → "добавлена", "добавлено", "добавлены", "добавленный"). Its forms are listed, not
 * its stem: the noun of the same verb shares the stem ("добавление", "подключение", "настроение"). A word
 * with ё is also written with е, as most Russian text is ("перешёл на" → "перешел на", "заменён" → "заменен").
 *
 * @param word - a cue as the table writes it.
 */
export const inflectRussian: Inflect = (word) => {
  const plain = word.replaceAll('ё', 'е');
  return plain === word ? russianParticiple(word) : [...russianParticiple(word), plain, ...russianParticiple(plain)];
};

/**
 * Polish: a passive participle in -ny or -ty also ends in -na, -ne (-ta, -te), and its impersonal past ends
 * in -no (-to): "naprawiony" → "naprawiona", "naprawione", "naprawiono". Its forms are listed, not its stem:
 * the noun of the same verb may share it ("dodanie", "zaimplementowanie"), an adverb too ("zdecydowanie").
 *
 * @param word - a cue as the table writes it.
 */
export const inflectPolish: Inflect = (word) => {
  if (!/^\p{L}{3,}[nt]y$/u.test(word)) return [];
  const stem = word.slice(0, -1);
  return [`${stem}a`, `${stem}e`, `${stem}o`];
};

/**
 * The words and their inflected forms, each once.
 *
 * @param words - cues as a table writes them.
 * @param inflect - the language's inflection, if it has one.
 */
export function withInflections(words: readonly string[], inflect?: Inflect): readonly string[] {
  if (!inflect) return words;
  return [...new Set(words.flatMap((word) => [word, ...inflect(word)]))];
}
