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
