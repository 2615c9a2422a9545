/**
 * Markdown to prose: the text of paragraphs, headings and table cells, with
 * code (fenced, indented and inline) and raw HTML left out, so a `[[link]]`
 * inside code never becomes a concept — maenifold ignores those too.
 *
 * Links and images are not resolved: their markup stays in the prose as
 * written. The prose is read for `[[WikiLinks]]` only, which a link's text
 * holds either way, and resolving labels is most of the parser's work on
 * text dense with brackets, as a section full of `[[links]]` is (every `]`
 * looks up a reference definition).
 *
 * Only ever called on the selected boundary sections: remark over a whole
 * 10 MB transcript takes seconds and gigabytes.
 */
import { unified, type Processor } from 'unified';
import remarkParse from 'remark-parse';
import { toString } from 'mdast-util-to-string';
import type { Nodes, Parents } from 'mdast';
import { stripFencedCode } from './fences.js';

/** micromark's constructs of links and images, turned off (see the module's doc). */
const LABEL_CONSTRUCTS = ['labelStartLink', 'labelStartImage', 'labelEnd'];

function withoutLabels(this: Processor): void {
  const data = this.data();
  (data.micromarkExtensions ??= []).push({ disable: { null: LABEL_CONSTRUCTS } });
}

const processor = unified().use(remarkParse).use(withoutLabels).freeze();

/*
 * The parser's cost grows faster than the text on a few shapes no real section has in number: setext
 * headings, a line nesting quote and list markers, emphasis delimiters and unclosed link destinations,
 * each of which, by the thousand, holds a 16 KB section for seconds. Past these counts, outside fenced
 * code, the section is read as plain lines instead: its prose stays, only its markup is not interpreted.
 */
/** Setext underlines (`===` or `---` alone on a line). */
const MAX_SETEXT_UNDERLINES = 100;
/** Quote and list markers opening one line. */
const MAX_CONTAINER_MARKERS = 32;
/** Emphasis delimiters (`*`, `_`). */
const MAX_EMPHASIS_DELIMITERS = 2_000;
/** Opening brackets (links, images, references). */
const MAX_BRACKETS = 1_000;

const SETEXT_UNDERLINE = /^ {0,3}(?:=+|-+)[ \t]*$/;

/** Quote and list markers at the start of a line, counting at most `MAX_CONTAINER_MARKERS + 1`. */
function containerMarkers(line: string): number {
  let markers = 0;
  for (let index = 0; index < line.length && markers <= MAX_CONTAINER_MARKERS; index++) {
    const char = line[index];
    if (char === ' ' || char === '\t') continue;
    if (char === '>' || char === '-' || char === '*' || char === '+') markers++;
    else break;
  }
  return markers;
}

/**
 * Whether the parser would spend far more on a text than its length warrants (see the limits above).
 * Linear: one pass over the lines outside fenced code.
 */
export function exceedsParserLimits(markdown: string): boolean {
  let underlines = 0;
  let emphasis = 0;
  let brackets = 0;
  for (const line of stripFencedCode(markdown).split('\n')) {
    if (SETEXT_UNDERLINE.test(line) && ++underlines > MAX_SETEXT_UNDERLINES) return true;
    if (containerMarkers(line) > MAX_CONTAINER_MARKERS) return true;
    for (let index = 0; index < line.length; index++) {
      const char = line.charCodeAt(index);
      if ((char === 42 || char === 95) && ++emphasis > MAX_EMPHASIS_DELIMITERS) return true;
      if (char === 91 && ++brackets > MAX_BRACKETS) return true;
    }
  }
  return false;
}

/** The text's lines outside fenced code, as one block: prose without its markup interpreted. */
function plainBlocks(markdown: string): string[] {
  const prose = stripFencedCode(markdown);
  return prose.trim().length > 0 ? [prose] : [];
}

const PROSE_BLOCKS = new Set(['paragraph', 'heading', 'tableCell']);
const CODE_LIKE = new Set(['code', 'inlineCode', 'html']);

function withoutCode(node: Nodes): Nodes {
  if (!('children' in node)) return node;
  const children = (node.children as Nodes[]).filter((child) => !CODE_LIKE.has(child.type)).map(withoutCode);
  return { ...node, children } as Nodes;
}

function collect(node: Nodes, blocks: string[]): void {
  if (CODE_LIKE.has(node.type)) return;
  if (PROSE_BLOCKS.has(node.type)) {
    const text = toString(withoutCode(node), { includeHtml: false });
    if (text.trim().length > 0) blocks.push(text);
    return;
  }
  if ('children' in node) for (const child of (node as Parents).children) collect(child as Nodes, blocks);
}

/**
 * The prose blocks of a markdown text, in document order.
 *
 * @param markdown - one selected section (sanitized).
 * @returns block texts; when the text has far more of a costly shape than
 * any real section (see `exceedsParserLimits`) or the parser gives up
 * (nesting deep enough to exhaust the stack), the text's lines outside
 * fenced code instead.
 */
export function proseBlocks(markdown: string): string[] {
  if (exceedsParserLimits(markdown)) return plainBlocks(markdown);
  const blocks: string[] = [];
  try {
    collect(processor.parse(markdown), blocks);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    // Degrade rather than lose the section's concepts.
    return plainBlocks(markdown);
  }
  return blocks;
}
