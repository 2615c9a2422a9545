/**
 * Assembles the first and the last H2 section of a whole conversation from
 * per-message analyses: a section that reaches the end of its message goes on
 * into the next messages until a heading stops it.
 */
import type { UnitAnalysis } from '../../workers/protocol.js';
import type { SectionKind } from '../../core/text/sections.js';

/** The selected sections and how they were chosen. */
export interface AssembledSections {
  kind: SectionKind;
  sections: string[];
}

/** Characters of head and of tail used when the conversation has no H2 at all. */
export const FALLBACK_CHARS = 4_000;

function continueSection(start: string, analyses: readonly UnitAnalysis[], from: number, maxChars: number): string {
  let section = start;
  for (let index = from; index < analyses.length && section.length < maxChars; index++) {
    const next = analyses[index];
    if (!next) break;
    if (next.lead.length > 0) section += `\n\n${next.lead}`;
    if (!next.leadIsWhole) break;
  }
  return section.length > maxChars ? section.slice(0, maxChars) : section;
}

function fallback(analyses: readonly UnitAnalysis[]): AssembledSections {
  let head = '';
  for (const analysis of analyses) {
    if (head.length >= FALLBACK_CHARS) break;
    if (analysis.lead.length > 0) head += (head ? '\n\n' : '') + analysis.lead;
  }
  let tail = '';
  for (let index = analyses.length - 1; index >= 0 && tail.length < FALLBACK_CHARS; index--) {
    const lead = analyses[index]?.lead ?? '';
    if (lead.length > 0) tail = lead + (tail ? `\n\n${tail}` : '');
  }
  head = head.slice(0, FALLBACK_CHARS);
  tail = tail.slice(-FALLBACK_CHARS);
  if (head.trim().length === 0) return { kind: 'empty', sections: [] };
  return { kind: 'fallback', sections: head === tail ? [head] : [head, tail] };
}

/**
 * @param analyses - the conversation's analyses in message order.
 * @param maxChars - cap on each assembled section.
 */
export function assembleBoundarySections(analyses: readonly UnitAnalysis[], maxChars: number): AssembledSections {
  const first = analyses.findIndex((analysis) => analysis.h2Count > 0);
  if (first === -1) return fallback(analyses);
  let last = first;
  for (let index = analyses.length - 1; index > first; index--) {
    if ((analyses[index]?.h2Count ?? 0) > 0) {
      last = index;
      break;
    }
  }
  const firstUnit = analyses[first] as UnitAnalysis;
  const lastUnit = analyses[last] as UnitAnalysis;
  const firstSection = firstUnit.firstSectionOpen
    ? continueSection(firstUnit.firstSection, analyses, first + 1, maxChars)
    : firstUnit.firstSection;
  const lastSection = lastUnit.lastSectionOpen
    ? continueSection(lastUnit.lastSection, analyses, last + 1, maxChars)
    : lastUnit.lastSection;
  const sameSection = first === last && firstUnit.h2Count === 1;
  return { kind: 'h2', sections: sameSection ? [firstSection] : [firstSection, lastSection] };
}
