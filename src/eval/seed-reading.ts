/**
 * The seed's reading of a session, the naive handler's as written: the text
 * parts joined, every `[[…]]` as a concept (in code or not) and the five
 * decision pattern families over sentences. The benchmark times it as the
 * naive pipeline; `npm run eval` scores it as the seed baseline.
 */
import { messageViewsOf } from '../main/session/session-export.js';

/** The naive link pattern: any `[[…]]`, code and a third bracket included. */
export const WIKILINK = /\[\[([^\]]+)\]\]/g;

/** The five naive decision patterns, in their order, each with the category the note gives its decisions. */
export const DECISION_PATTERNS: ReadonlyArray<{ pattern: RegExp; category: string }> = [
  { pattern: /(?:we|I)\s+(?:decided|chose|selected|picked)\s+(?:to\s+)?(.{10,150})/gi, category: 'implementation' },
  { pattern: /(?:using|chose|selected)\s+(\w+)\s+(?:for|as|instead of)\s+(.{5,100})/gi, category: 'architecture' },
  { pattern: /(?:because|since|the reason is)\s+(.{10,150})/gi, category: 'rationale' },
  { pattern: /(?:approach|strategy|solution)[:\s]+(.{10,150})/gi, category: 'architecture' },
  { pattern: /(?:we|I)\s+(?:won't|will not|shouldn't|decided against)\s+(.{10,100})/gi, category: 'rejection' },
];

/** A decision as the seed extracts it. */
export interface SeedDecision {
  text: string;
  /** The sentence it came from, at most 200 characters. */
  context: string;
  category: string;
}

/** Every text part joined, synthetic or not, as the seed reads a session. */
export function transcriptOf(session: unknown): string {
  const texts: string[] = [];
  for (const message of messageViewsOf(session)) for (const { text } of message.texts) texts.push(text);
  return texts.join('\n');
}

/**
 * Concepts of `text` normalized the naive way (ASCII letters and digits, hyphens, at most 100 characters), deduped.
 *
 * @param text - prose.
 */
export function seedConcepts(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(WIKILINK)) {
    const concept = (match[1] ?? '')
      .toLowerCase()
      .replace(/\s+/g, '-')
      .replace(/[^a-z0-9-]/g, '')
      .replace(/-+/g, '-')
      .replace(/^-|-$/g, '');
    if (concept.length > 0 && concept.length <= 100) found.add(concept);
  }
  return [...found];
}

/**
 * Decisions of `text` as the naive handler extracts them: sentence by sentence, every family that matches,
 * deduped by text.
 *
 * @param text - the transcript.
 */
export function seedDecisions(text: string): SeedDecision[] {
  const decisions: SeedDecision[] = [];
  const seen = new Set<string>();
  for (const sentence of text.split(/(?<=[.!?])\s+/)) {
    for (const { pattern, category } of DECISION_PATTERNS) {
      pattern.lastIndex = 0;
      const match = pattern.exec(sentence);
      if (!match) continue;
      const found = (match[1]?.trim() || match[0].trim());
      const key = found.toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      decisions.push({ text: found, context: sentence.trim().slice(0, 200), category });
    }
  }
  return decisions;
}
