/**
 * The naive reading the engine is measured against: the whole transcript
 * joined and parsed by remark on the calling thread, then the seed's
 * WikiLink and decision patterns over all of its text.
 */
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import { toString } from 'mdast-util-to-string';
import { DECISION_PATTERNS, transcriptOf, WIKILINK } from '../src/eval/seed-reading.js';

export { transcriptOf };

/** Runs the naive pipeline and returns how much it found, so the work cannot be optimized away. */
export function naiveExtraction(session: unknown): { concepts: number; decisions: number } {
  const text = toString(unified().use(remarkParse).parse(transcriptOf(session)));
  const concepts = new Set<string>();
  for (const match of text.matchAll(WIKILINK)) concepts.add((match[1] ?? '').toLowerCase());
  let decisions = 0;
  for (const sentence of text.split(/(?<=[.!?])\s+/)) {
    for (const { pattern } of DECISION_PATTERNS) {
      pattern.lastIndex = 0;
      if (pattern.exec(sentence)) decisions++;
    }
  }
  return { concepts: concepts.size, decisions };
}
