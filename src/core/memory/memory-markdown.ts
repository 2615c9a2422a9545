/**
 * maenifold's reading of a note's markdown: the WikiLinks it sees (outside
 * fenced, indented and inline code) and `## ` sections. A line scanner
 * rather than remark: the index reads tens of megabytes, and remark takes
 * seconds per ten. Titles, URIs, concept names and frontmatter are in
 * memory-format.ts.
 */
import { normalizeMemoryConcept } from './memory-format.js';
import { closesFence, openingFence, type Fence } from '../text/fences.js';

/** maenifold's WikiLink pattern: `[[x]]` but not `[[[x]]]`. */
const WIKILINK = /(?<!\[)\[\[([^[\]]+)\]\](?!\])/g;
const HEADING = /^ {0,3}#{1,6}(\s|$)/;
const H2 = /^ {0,3}##(?:[ \t]+(.*?))?[ \t]*#*[ \t]*$/;

/** Paragraphs and headings of a body; fenced blocks and indented code are skipped. */
function proseBlocks(body: string): string[] {
  const blocks: string[] = [];
  let current: string[] = [];
  let fence: Fence | null = null;
  const flush = (): void => {
    if (current.length > 0) blocks.push(current.join('\n'));
    current = [];
  };
  for (const line of body.split(/\r?\n/)) {
    if (fence) {
      if (closesFence(line, fence)) fence = null;
      continue;
    }
    fence = openingFence(line);
    if (fence) {
      flush();
      continue;
    }
    if (line.trim() === '') {
      flush();
      continue;
    }
    // Indented code cannot interrupt a paragraph (CommonMark), so only outside one.
    if (current.length === 0 && /^(?: {4}|\t)/.test(line)) continue;
    if (HEADING.test(line)) {
      flush();
      blocks.push(line);
      continue;
    }
    current.push(line);
  }
  flush();
  return blocks;
}

/** Blanks out inline code spans (a run of n backticks closed by a run of exactly n). */
function maskInlineCode(text: string): string {
  if (!text.includes('`')) return text;
  let out = '';
  let index = 0;
  while (index < text.length) {
    if (text[index] !== '`') {
      const next = text.indexOf('`', index);
      const end = next === -1 ? text.length : next;
      out += text.slice(index, end);
      index = end;
      continue;
    }
    let run = 0;
    while (text[index + run] === '`') run += 1;
    const ticks = '`'.repeat(run);
    let search = index + run;
    let close = -1;
    while (search < text.length) {
      const found = text.indexOf(ticks, search);
      if (found < 0) break;
      let after = found + run;
      while (text[after] === '`') after += 1;
      if (after - found === run) {
        close = found;
        break;
      }
      search = after;
    }
    if (close < 0) {
      out += ticks;
      index += run;
    } else {
      out += ' '.repeat(close + run - index);
      index = close + run;
    }
  }
  return out;
}

/**
 * The concepts maenifold sees in a body: WikiLinks in paragraphs and
 * headings, normalized, de-duplicated, in order of first appearance.
 *
 * @param body - markdown (frontmatter already removed).
 */
export function memoryConcepts(body: string): string[] {
  if (!body.includes('[[')) return [];
  const concepts = new Set<string>();
  for (const block of proseBlocks(body)) {
    if (!block.includes('[[')) continue;
    for (const match of maskInlineCode(block).matchAll(WIKILINK)) {
      const concept = normalizeMemoryConcept(match[1] ?? '');
      if (concept !== '') concepts.add(concept);
    }
  }
  return [...concepts];
}

/** One `## ` section: its heading and trimmed content up to the next `## `. */
export interface H2Section {
  heading: string;
  content: string;
}

/**
 * The `## ` sections of a body, fence-aware.
 *
 * @param body - markdown (frontmatter already removed).
 */
export function h2Sections(body: string): H2Section[] {
  const sections: { heading: string; lines: string[] }[] = [];
  let current: { heading: string; lines: string[] } | undefined;
  let fence: Fence | null = null;
  for (const line of body.split(/\r?\n/)) {
    if (!fence) {
      fence = openingFence(line);
      const heading = fence ? null : H2.exec(line);
      if (heading) {
        if (current) sections.push(current);
        current = { heading: (heading[1] ?? '').trim(), lines: [] };
        continue;
      }
    } else if (closesFence(line, fence)) {
      fence = null;
    }
    current?.lines.push(line);
  }
  if (current) sections.push(current);
  return sections.map((section) => ({ heading: section.heading, content: section.lines.join('\n').trim() }));
}
