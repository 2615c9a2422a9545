/**
 * Answers about recent texts, kept: the final pass reads the same decisions,
 * requests and problems again on every compaction of a growing session.
 */
import { LRUCache } from 'lru-cache';

/**
 * `read`, remembering its answers for the last `max` texts. The answers are shared between callers, so
 * they must be read only.
 *
 * @param read - a pure function of the text.
 * @param max - how many texts to remember.
 */
export function rememberedByText<T extends object>(read: (text: string) => T, max: number): (text: string) => T {
  const answers = new LRUCache<string, T>({ max });
  return (text) => {
    let answer = answers.get(text);
    if (answer === undefined) {
      answer = read(text);
      answers.set(text, answer);
    }
    return answer;
  };
}

/**
 * The distinct lowercase words of at least three letters in a text's first `headChars` characters
 * (letters, digits and `_`), remembered for the last `max` texts: what two near-repeat items are
 * compared by.
 *
 * @param headChars - how much of each text is read.
 * @param dropNumbers - whether words of digits only are left out.
 * @param max - how many texts to remember.
 */
export function rememberedWordSets(headChars: number, dropNumbers: boolean, max: number): (text: string) => ReadonlySet<string> {
  return rememberedByText((text: string): ReadonlySet<string> => {
    const found = new Set<string>();
    for (const word of text.toLowerCase().slice(0, headChars).split(/[^\p{L}\p{N}_]+/u)) {
      if (word.length >= 3 && !(dropNumbers && /^\d+$/.test(word))) found.add(word);
    }
    return found;
  }, max);
}
