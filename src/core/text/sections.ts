/**
 * H1/H2 heading scan and boundary-section selection: concepts come from the
 * first H2 section (the problem) and the last (the conclusion), not from the
 * noise between.
 *
 * A single pass over lines, with no parser: the transcript can be megabytes,
 * and only the sections it selects go on to remark. A section runs from its
 * heading to the next heading of the same or lower depth, as in
 * mdast-util-heading-range; only depths 1 and 2 are tracked, so that rule
 * reduces to "up to the next tracked heading".
 */
import { capChars, capCharsFromEnd } from './char-cap.js';
import { closesFence, openingFence, type Fence } from './fences.js';

/** An ATX heading of depth 1 or 2 outside fenced code. */
export interface Heading {
  /** Offset of the heading line's first character. */
  offset: number;
  depth: 1 | 2;
  title: string;
}

/** Options of {@link selectBoundarySections}. */
export interface SectionSettings {
  /**
   * Cap on each selected section, in characters.
   * @default 16000
   */
  maxSectionChars: number;
  /**
   * Characters of head and of tail taken when the text has no H2.
   * @default 4000
   */
  fallbackChars: number;
}

/** Defaults of {@link SectionSettings}. */
export const DEFAULT_SECTION_SETTINGS: Readonly<SectionSettings> = Object.freeze({
  maxSectionChars: 16_000,
  fallbackChars: 4_000,
});

/**
 * How the boundary sections were chosen: `h2`, the first and the last H2
 * section; `fallback`, the head and tail of a text without any H2; `empty`,
 * nothing to choose from.
 */
export type SectionKind = 'h2' | 'fallback' | 'empty';

/** The sections chosen from a text and how they were chosen. */
export interface SectionSelection {
  kind: SectionKind;
  sections: string[];
}

const ATX = /^ {0,3}(#{1,2})(?:[ \t](.*))?$/;

// Done by hand: a closing-sequence regex backtracks quadratically on long runs of spaces.
function headingTitle(rest: string): string {
  const content = rest.trim();
  let end = content.length;
  while (end > 0 && content.charCodeAt(end - 1) === 0x23) end--;
  if (end === content.length) return content;
  if (end === 0) return '';
  const before = content.charCodeAt(end - 1);
  return before === 0x20 || before === 0x09 ? content.slice(0, end).trimEnd() : content;
}

/**
 * Finds the H1 and H2 headings outside fenced code, in order. An unclosed
 * fence runs to the end of the text. Linear in the length of the text.
 *
 * @param text - sanitized markdown.
 */
export function scanHeadings(text: string): Heading[] {
  const headings: Heading[] = [];
  let fence: Fence | null = null;
  let start = 0;
  while (start <= text.length) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    // Only lines that could be a fence or a heading are sliced: the rest is skipped by its first bytes.
    const first = text.charCodeAt(start + (text.charCodeAt(start) === 32 ? Math.min(3, countSpaces(text, start, end)) : 0));
    if (first === 0x60 || first === 0x7e || first === 0x23) {
      const line = text.slice(start, end).replace(/\r$/, '');
      if (fence) {
        if (closesFence(line, fence)) fence = null;
      } else {
        const opened = first === 0x23 ? null : openingFence(line);
        if (opened) {
          fence = opened;
        } else if (first === 0x23) {
          const match = ATX.exec(line);
          if (match) {
            const title = headingTitle(match[2] ?? '');
            headings.push({ offset: start, depth: (match[1] ?? '').length === 1 ? 1 : 2, title });
          }
        }
      }
    }
    if (newline === -1) break;
    start = newline + 1;
  }
  return headings;
}

function countSpaces(text: string, from: number, end: number): number {
  let count = 0;
  while (from + count < end && text.charCodeAt(from + count) === 32 && count < 4) count++;
  return count;
}

/**
 * The section of `headings[index]`: from its line to the next tracked
 * heading, capped at `maxChars`.
 *
 * @param text - the text the headings were scanned from.
 * @param headings - the result of {@link scanHeadings} on `text`.
 * @param index - which heading's section.
 * @param maxChars - cap on the section.
 */
export function sectionAt(text: string, headings: readonly Heading[], index: number, maxChars: number): string {
  const heading = headings[index];
  if (!heading) return '';
  const end = headings[index + 1]?.offset ?? text.length;
  return capChars(text.slice(heading.offset, end).trimEnd(), maxChars);
}

/**
 * Selects the first and the last H2 section of a text (one when they are the
 * same); without any H2, a bounded head and tail of the text.
 *
 * @param text - sanitized markdown.
 * @param settings - caps; see {@link DEFAULT_SECTION_SETTINGS}.
 */
export function selectBoundarySections(text: string, settings: Partial<SectionSettings> = {}): SectionSelection {
  const { maxSectionChars, fallbackChars } = { ...DEFAULT_SECTION_SETTINGS, ...settings };
  const headings = scanHeadings(text);
  const first = headings.findIndex((heading) => heading.depth === 2);
  if (first !== -1) {
    let last = first;
    for (let index = headings.length - 1; index > first; index--) {
      if (headings[index]?.depth === 2) {
        last = index;
        break;
      }
    }
    const sections = [sectionAt(text, headings, first, maxSectionChars)];
    if (last !== first) sections.push(sectionAt(text, headings, last, maxSectionChars));
    return { kind: 'h2', sections };
  }
  if (text.trim().length === 0) return { kind: 'empty', sections: [] };
  if (text.length <= fallbackChars * 2) return { kind: 'fallback', sections: [text] };
  return { kind: 'fallback', sections: [capChars(text, fallbackChars), capCharsFromEnd(text, fallbackChars)] };
}
