/**
 * `[[WikiLink]]` concepts, normalized to lowercase letters, digits and
 * hyphens, with "letters and digits" read as Unicode's: `[[データ構造]]` and `[[Café]]` keep their
 * letters, as maenifold keeps them.
 */

/** The longest normalized concept, in code points. */
export const MAX_CONCEPT_LENGTH = 100;

/** A concept and how often it was linked. */
export interface ConceptCount {
  name: string;
  count: number;
}

/** Markup that can read as a bracket in prose without being one in the text: an escape or a character reference. */
const BRACKET_SPELLING = /\\\[|&(?:#|lsqb;|lbrack;)/i;

/**
 * Whether a markdown text can hold a `[[link]]` once read as prose: a `[[`, or a bracket written as an escape
 * or a character reference (`\[`, `&#91;`). A text with neither links nothing, and is not worth parsing.
 *
 * @param markdown - the raw text.
 */
export function mayHoldWikiLinks(markdown: string): boolean {
  return markdown.includes('[[') || BRACKET_SPELLING.test(markdown);
}

/**
 * The raw targets of `[[…]]` links, in order, with the semantics of the
 * seed's `/\[\[([^\]]+)\]\]/g` ("See [[foo [[bar]]]]" gives "foo [[bar").
 * Written as an index scan: linear even on a megabyte of unclosed `[[`.
 *
 * @param text - prose (code already removed by the caller when it matters).
 */
export function findWikiLinks(text: string): string[] {
  const links: string[] = [];
  let from = 0;
  for (;;) {
    const open = text.indexOf('[[', from);
    if (open === -1) break;
    const close = text.indexOf(']', open + 2);
    // No "]" anywhere after: no later "[[" can close either.
    if (close === -1) break;
    if (close > open + 2 && text.charCodeAt(close + 1) === 0x5d) {
      links.push(text.slice(open + 2, close));
      from = close + 2;
    } else {
      // Every "[[" before `close` meets the same first "]", so fails the same way.
      from = close + 1;
    }
  }
  return links;
}

const SEPARATORS = /[\s_/]+/gu;
const DISALLOWED = /[^\p{L}\p{N}\p{M}-]+/gu;
const HYPHEN_RUNS = /-{2,}/g;
const EDGE_HYPHENS = /^-+|-+$/g;

/**
 * Normalizes a link target: lowercase; whitespace, `_` and `/` become `-`;
 * anything but letters, digits, combining marks and `-` goes; hyphen runs
 * collapse; edge hyphens go. Idempotent.
 *
 * @param raw - a link target as written.
 * @returns the concept, or `''` when nothing is left or it is longer than
 * {@link MAX_CONCEPT_LENGTH} code points.
 */
export function normalizeConcept(raw: string): string {
  const name = raw
    .toLowerCase()
    .replace(SEPARATORS, '-')
    .replace(DISALLOWED, '')
    .replace(HYPHEN_RUNS, '-')
    .replace(EDGE_HYPHENS, '');
  if (name.length === 0) return '';
  // Code points, not UTF-16 units: a CJK concept is not penalized for its encoding.
  if (name.length > MAX_CONCEPT_LENGTH && [...name].length > MAX_CONCEPT_LENGTH) return '';
  return name;
}

/**
 * Normalized concepts of a text, deduped in first-seen order.
 *
 * @param text - prose.
 */
export function extractConcepts(text: string): string[] {
  return countConcepts([text], { max: Number.MAX_SAFE_INTEGER }).map((concept) => concept.name);
}

/** Options of {@link countConcepts}. */
export interface ConceptOptions {
  /**
   * How many concepts to return.
   * @default 100
   */
  max: number;
}

/**
 * Concepts of several texts with their link counts, in first-seen order.
 *
 * @param texts - prose blocks.
 * @param options - see {@link ConceptOptions}.
 */
export function countConcepts(texts: readonly string[], options: Partial<ConceptOptions> = {}): ConceptCount[] {
  const max = options.max ?? 100;
  const counts = new Map<string, number>();
  for (const text of texts) {
    for (const raw of findWikiLinks(text)) {
      const name = normalizeConcept(raw);
      if (name) counts.set(name, (counts.get(name) ?? 0) + 1);
    }
  }
  return [...counts].slice(0, max).map(([name, count]) => ({ name, count }));
}
