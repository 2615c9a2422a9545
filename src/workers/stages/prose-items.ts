/**
 * A message's prose as items an engineer would read one at a time: list
 * items, table rows and sentences, each with the heading or lead-in it sits
 * under. One pass over the lines; fenced code is skipped.
 */
import { stripFencedCode } from './sections.js';

/** How an item was written. */
export type ProseItemKind = 'bullet' | 'row' | 'sentence';

/** One list item, table row or sentence of prose. */
export interface ProseItem {
  kind: ProseItemKind;
  /** The item without markdown markup, whitespace collapsed, at most {@link MAX_ITEM_CHARS}. */
  text: string;
  /** The section heading above it ('' when none), without markup, lowercase. */
  section: string;
  /** The lead-in above it: a bold or colon-ended line, a `**Label:**` prefix or a table's header row. */
  lead: string;
  /** Whether it is in the closing paragraph of the message. */
  closing: boolean;
  /** Position among the message's items. */
  index: number;
}

/** Characters of one message read: a paste of megabytes holds no more decisions than its first pages. */
export const MAX_PROSE_CHARS = 192 * 1024;
/** Cap on one item. */
export const MAX_ITEM_CHARS = 400;
/** Cap on the items of one message. */
export const MAX_ITEMS = 600;
/** Cap on a heading or lead-in. */
const MAX_LABEL_CHARS = 80;

const ATX = /^ {0,3}(#{1,6})[ \t]+(.{0,300})/;
const BULLET = /^[ \t]{0,12}(?:[-*+•]|\d{1,3}[.)])[ \t]+(.*)$/;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-{2,}/;
/** A line that is only a bold label, or a short line ending with a colon: a lead-in for what follows. */
const BOLD_LINE = /^\s*\*\*([^*\n]{1,120})\*\*\s*:?\s*$/;
/** `**Label:** rest` or `**Label**: rest` at the start of a line or item. */
const BOLD_PREFIX = /^\*\*([^*\n]{1,80}?)(?::\*\*|\*\*\s*:|\*\*\s+[—–-])\s*(.*)$/;

/** Markdown markup removed, whitespace collapsed. */
export function plainText(text: string): string {
  return text
    .replace(/\*\*|__|`/g, '')
    .replace(/\[([^\]\n]{0,200})\]\([^)\n]{0,500}\)/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

function label(text: string): string {
  return plainText(text)
    .replace(/^[^\p{L}\p{N}]+/u, '')
    .replace(/[\s:：.]+$/u, '')
    .toLowerCase()
    .slice(0, MAX_LABEL_CHARS);
}

function cap(text: string): string {
  return text.length <= MAX_ITEM_CHARS ? text : text.slice(0, MAX_ITEM_CHARS).replace(/[\uD800-\uDBFF]$/, '');
}

/** Sentences: split after `.`, `!`, `?` and a space, or after their full-width forms. */
function sentencesOf(paragraph: string): string[] {
  return paragraph.split(/(?<=[.!?])\s+|(?<=[。！？])/u).filter((sentence) => sentence.length > 0);
}

/** The text read from a message: its head and tail when it is longer than {@link MAX_PROSE_CHARS}. */
function bounded(text: string): string {
  if (text.length <= MAX_PROSE_CHARS) return text;
  return `${text.slice(0, (MAX_PROSE_CHARS * 3) / 4)}\n\n${text.slice(-MAX_PROSE_CHARS / 4)}`;
}

/**
 * The items of a message's prose, in order.
 *
 * @param text - sanitized markdown of one message.
 */
export function proseItems(text: string): ProseItem[] {
  const source = bounded(text);
  const prose = source.includes('```') || source.includes('~~~') ? stripFencedCode(source) : source;
  const items: ProseItem[] = [];
  let section = '';
  let lead = '';
  let tableHeader = '';
  let paragraph: string[] = [];
  const push = (kind: ProseItemKind, raw: string, itemLead = lead): void => {
    if (items.length >= MAX_ITEMS) return;
    const prefix = BOLD_PREFIX.exec(raw.trim());
    const body = prefix ? `${prefix[1]}: ${prefix[2]}` : raw;
    const text = cap(plainText(body));
    if (text.length < 3) return;
    items.push({ kind, text, section, lead: prefix ? label(prefix[1] ?? '') : itemLead, closing: false, index: items.length });
  };
  const flush = (): void => {
    if (paragraph.length === 0) return;
    for (const sentence of sentencesOf(paragraph.join(' '))) push('sentence', sentence);
    paragraph = [];
  };
  for (const rawLine of prose.split('\n')) {
    if (items.length >= MAX_ITEMS) break;
    const line = rawLine.length > 4 * MAX_ITEM_CHARS ? rawLine.slice(0, 4 * MAX_ITEM_CHARS) : rawLine;
    const trimmed = line.trim();
    if (!trimmed.startsWith('|')) tableHeader = '';
    if (trimmed === '' || /^(?:-{3,}|\*{3,}|_{3,})$/.test(trimmed)) {
      flush();
      continue;
    }
    const heading = ATX.exec(line);
    if (heading) {
      flush();
      section = label(heading[2] ?? '');
      lead = '';
      continue;
    }
    const bold = BOLD_LINE.exec(line);
    if (bold || (trimmed.length <= 80 && /[:：]$/.test(trimmed) && !BULLET.test(line))) {
      flush();
      lead = label(bold ? (bold[1] ?? '') : trimmed);
      continue;
    }
    if (trimmed.startsWith('|')) {
      flush();
      if (TABLE_SEPARATOR.test(trimmed)) continue;
      const cells = trimmed.split('|').map((cell) => cell.trim()).filter((cell) => cell.length > 0 && !/^#?\d{1,3}$/.test(cell));
      if (tableHeader === '') tableHeader = label(cells.join(' '));
      else push('row', cells.join(' — '), tableHeader);
      continue;
    }
    const bullet = BULLET.exec(line);
    if (bullet) {
      flush();
      push('bullet', bullet[1] ?? '');
      continue;
    }
    paragraph.push(trimmed);
  }
  flush();
  // The closing paragraph: the items after the last heading, lead-in or list, at most three sentences.
  for (let index = items.length - 1, seen = 0; index >= 0 && seen < 3; index--, seen++) {
    const item = items[index];
    if (!item || item.kind !== 'sentence') break;
    item.closing = true;
  }
  return items;
}
