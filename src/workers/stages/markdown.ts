/**
 * Markdown to prose: the text of paragraphs, headings and table cells, with
 * code (fenced, indented and inline) and raw HTML left out, so a `[[link]]`
 * inside code never becomes a concept — maenifold ignores those too.
 *
 * Only ever called on the selected boundary sections: remark over a whole
 * 10 MB transcript takes seconds and gigabytes.
 */
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import { toString } from 'mdast-util-to-string';
import type { Nodes, Parents } from 'mdast';
import { stripFencedCode } from './sections.js';

const processor = unified().use(remarkParse).freeze();

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
 * @returns block texts; when the parser gives up (nesting deep enough to
 * exhaust the stack), the text's lines outside fenced code instead.
 */
export function proseBlocks(markdown: string): string[] {
  const blocks: string[] = [];
  try {
    collect(processor.parse(markdown), blocks);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    // Degrade rather than lose the section's concepts.
    const prose = stripFencedCode(markdown);
    return prose.trim().length > 0 ? [prose] : [];
  }
  return blocks;
}
