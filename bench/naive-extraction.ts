/**
 * The naive reading the engine is measured against: the whole transcript
 * joined and parsed by remark on the calling thread, then the seed's
 * WikiLink and decision patterns over all of its text.
 */
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import { toString } from 'mdast-util-to-string';
import { messagesOf } from '../src/main/session-units.js';

const WIKILINK = /\[\[([^\]]+)\]\]/g;
const DECISION_PATTERNS = [
  /(?:we|I)\s+(?:decided|chose|selected|picked)\s+(?:to\s+)?(.{10,150})/gi,
  /(?:using|chose|selected)\s+(\w+)\s+(?:for|as|instead of)\s+(.{5,100})/gi,
  /(?:because|since|the reason is)\s+(.{10,150})/gi,
  /(?:approach|strategy|solution)[:\s]+(.{10,150})/gi,
  /(?:we|I)\s+(?:won't|will not|shouldn't|decided against)\s+(.{10,100})/gi,
];

/** The conversation's text parts joined, as the seed reads a session. */
export function transcriptOf(session: unknown): string {
  const texts: string[] = [];
  for (const message of messagesOf(session) ?? []) {
    const parts = (message as { parts?: unknown[] }).parts ?? [];
    for (const part of parts) {
      const text = (part as { type?: string; text?: unknown }).text;
      if ((part as { type?: string }).type === 'text' && typeof text === 'string') texts.push(text);
    }
  }
  return texts.join('\n');
}

/** Runs the naive pipeline and returns how much it found, so the work cannot be optimized away. */
export function naiveExtraction(session: unknown): { concepts: number; decisions: number } {
  const text = toString(unified().use(remarkParse).parse(transcriptOf(session)));
  const concepts = new Set<string>();
  for (const match of text.matchAll(WIKILINK)) concepts.add((match[1] ?? '').toLowerCase());
  let decisions = 0;
  for (const sentence of text.split(/(?<=[.!?])\s+/)) {
    for (const pattern of DECISION_PATTERNS) {
      pattern.lastIndex = 0;
      if (pattern.exec(sentence)) decisions++;
    }
  }
  return { concepts: concepts.size, decisions };
}
