/**
 * A message's prose as items an engineer would read one at a time: list
 * items, table rows and sentences, each with the heading or lead-in it sits
 * under. One pass over the lines; fenced code is skipped.
 */
import { splitAfterStops } from '../../text/sentences.js';
import { capChars, capCharsFromEnd } from '../../text/char-cap.js';
import { closesFence, openingFence, type Fence } from '../../text/fences.js';

/** How an item was written. */
export type ProseItemKind = 'bullet' | 'row' | 'sentence';

/** One list item, table row or sentence of prose. */
export interface ProseItem {
  kind: ProseItemKind;
  /** The item without markdown markup, whitespace collapsed, at most {@link MAX_ITEM_CHARS}. */
  text: string;
  /** The section heading above it ('' when none), without markup, lowercase. */
  section: string;
  /** The lead-in above it: a bold or colon-ended line, a `**Label:**` prefix or a table's header row (its cells joined by ` | `). */
  lead: string;
  /** Whether it is one of the last three items of the message. */
  closing: boolean;
  /** Position among the message's items. */
  index: number;
  /** Length of the text before a code block it announces was appended. */
  announced: number;
  /** Whether the item is only a heading or lead-in standing for the code block under it. */
  label: boolean;
  /**
   * The lead-in of the list the item belongs to, when the list has one that is not a heading or a bold
   * line: a short plain line right above it ("What I changed") or the colon-ended bullet it is nested under
   * ("Root cause during the run:"); '' otherwise. Lowercase, without markup.
   */
  listLead: string;
  /** Whether the item is a colon-ended bullet that leads the list nested under it. */
  leadsList: boolean;
}

/** Characters of one message read: a paste of megabytes holds no more decisions than its first pages. */
export const MAX_PROSE_CHARS = 64 * 1024;
/** Cap on one item. */
export const MAX_ITEM_CHARS = 400;
/** Cap on the items of one message. */
export const MAX_ITEMS = 300;
/** Cap on a heading or lead-in. */
const MAX_LABEL_CHARS = 80;
/** Longest plain line read as the lead-in of the list right under it. */
const MAX_PLAIN_LEAD_CHARS = 60;

const ATX = /^ {0,3}(#{1,6})[ \t]+(.{0,300})/;
/** Characters of a code block appended to the item that announces it ("Clean and reinstall:"). */
const MAX_ANNOUNCED_CODE_CHARS = 160;
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

/** Sentences: split after `.`, `!`, `?` and a space, or after their full-width forms. */
function sentencesOf(paragraph: string): string[] {
  return splitAfterStops(paragraph, true).filter((sentence) => sentence.length > 0);
}

/** The text read from a message: its head and tail when it is longer than {@link MAX_PROSE_CHARS}. */
function bounded(text: string): string {
  if (text.length <= MAX_PROSE_CHARS) return text;
  return `${capChars(text, (MAX_PROSE_CHARS * 3) / 4)}\n\n${capCharsFromEnd(text, MAX_PROSE_CHARS / 4)}`;
}

/**
 * The items of a message's prose, in order.
 *
 * @param text - sanitized markdown of one message.
 */
export function proseItems(text: string): ProseItem[] {
  const prose = bounded(text);
  const items: ProseItem[] = [];
  /** Headings by depth: a subsection ("Steps") reads under its parent ("Plan for the fix"). */
  const headings: string[] = [];
  let section = '';
  let fence: Fence | null = null;
  /** The item a code block right after it belongs to, while that block is read. */
  let announcing: ProseItem | null = null;
  let lastLineItem: ProseItem | null = null;
  /** The heading or lead-in on the line before, while nothing else has followed it. */
  let labelled = '';
  let lead = '';
  /** The lead-in of the current list (see `ProseItem.listLead`). */
  let listLead = '';
  /** A bullet ending with a colon leads the bullets nested under it: its indentation and the list lead it replaced. */
  let bulletLead: { indent: number; outer: string } | null = null;
  /** The last bullet, when it ends with a colon: it leads the list if one nested under it follows. */
  let colonBullet: { item: ProseItem; indent: number } | null = null;
  let tableHeader = '';
  let paragraph: string[] = [];
  const push = (kind: ProseItemKind, raw: string, itemLead = lead): void => {
    if (items.length >= MAX_ITEMS) return;
    const prefix = BOLD_PREFIX.exec(raw.trim());
    const body = prefix ? `${prefix[1]}: ${prefix[2]}` : raw;
    const text = capChars(plainText(body), MAX_ITEM_CHARS);
    if (text.length < 3) return;
    // A row's lead is its table's header, a bold first cell included: the header says what each row reports.
    // So is a bullet's the bold line above its list ("**The work is three steps:**"); its own bold label stays in its text.
    const own = prefix && kind !== 'row' && !(kind === 'bullet' && itemLead !== '');
    items.push({ kind, text, section, lead: own ? label(prefix[1] ?? '') : itemLead, closing: false, index: items.length, announced: 0, label: false, listLead: kind === 'bullet' ? listLead : '', leadsList: false });
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
    if (fence) {
      if (closesFence(line, fence)) {
        fence = null;
        announcing = null;
      } else if (announcing && trimmed !== '' && announcing.text.length < MAX_ITEM_CHARS) {
        const room = MAX_ANNOUNCED_CODE_CHARS - (announcing.text.length - announcing.announced);
        if (room > 0) announcing.text = capChars(`${announcing.text} ${trimmed.slice(0, room)}`, MAX_ITEM_CHARS);
      }
      continue;
    }
    fence = openingFence(line);
    if (fence) {
      flush();
      if (labelled !== '' && lastLineItem === null) {
        // A block right under a heading or lead-in ("Run the test:") is that label's content.
        push('sentence', `${labelled}:`);
        lastLineItem = items.at(-1) ?? null;
        if (lastLineItem) lastLineItem.label = true;
      }
      labelled = '';
      const last = items.at(-1);
      announcing = last && last === lastLineItem && /[:：]$/.test(last.text) ? last : null;
      if (announcing) announcing.announced = announcing.text.length;
      continue;
    }
    if (!trimmed.startsWith('|')) tableHeader = '';
    if (trimmed === '' || /^(?:-{3,}|\*{3,}|_{3,})$/.test(trimmed)) {
      flush();
      continue;
    }
    // A blank line may separate an item from the code block it announces; anything else ends the announcement.
    lastLineItem = null;
    labelled = '';
    const heading = ATX.exec(line);
    if (heading) {
      flush();
      const depth = (heading[1] ?? '#').length;
      headings.length = depth - 1;
      headings[depth - 1] = label(heading[2] ?? '');
      section = headings.filter((title) => title).join(' / ');
      lead = '';
      listLead = '';
      bulletLead = null;
      labelled = headings[depth - 1] ?? '';
      continue;
    }
    const bold = BOLD_LINE.exec(line);
    if (bold || (trimmed.length <= 80 && /[:：]$/.test(trimmed) && !BULLET.test(line))) {
      flush();
      // A longer line ending with a colon also says something itself ("Now I wrap X in try/except:").
      if (!bold && trimmed.length >= 30) {
        push('sentence', trimmed);
        lastLineItem = items.at(-1) ?? null;
      }
      lead = label(bold ? (bold[1] ?? '') : trimmed);
      listLead = '';
      bulletLead = null;
      if (lastLineItem === null) labelled = lead;
      continue;
    }
    if (trimmed.startsWith('|')) {
      flush();
      if (TABLE_SEPARATOR.test(trimmed)) continue;
      const cells = trimmed.split('|').map((cell) => cell.trim()).filter((cell) => cell.length > 0 && !/^#?\d{1,3}$/.test(cell));
      // Cells stay apart in the header: a table is read by what each column holds (a change, a status).
      if (tableHeader === '') tableHeader = label(cells.join(' | '));
      else push('row', cells.join(' — '), tableHeader);
      continue;
    }
    const bullet = BULLET.exec(line);
    if (bullet) {
      // A short line with no closing stop right above a list ("What I changed") is the list's lead-in.
      const plainLead = paragraph.length === 1 && (paragraph[0] ?? '').length <= MAX_PLAIN_LEAD_CHARS && !/[.!?。！？:：]$/.test(paragraph[0] ?? '');
      flush();
      if (plainLead) {
        const above = items.at(-1);
        if (above) above.leadsList = true;
        listLead = label(above?.text ?? '');
        bulletLead = null;
      }
      const indent = line.length - line.trimStart().length;
      if (bulletLead && indent <= bulletLead.indent) {
        listLead = bulletLead.outer;
        bulletLead = null;
      }
      if (colonBullet && bulletLead === null && indent > colonBullet.indent) {
        // The bullet above, ending with a colon, turns out to lead a nested list.
        bulletLead = { indent: colonBullet.indent, outer: listLead };
        listLead = label(colonBullet.item.text);
        colonBullet.item.leadsList = true;
      }
      push('bullet', bullet[1] ?? '');
      lastLineItem = items.at(-1) ?? null;
      colonBullet = lastLineItem && bulletLead === null && /[:：]$/.test(lastLineItem.text) ? { item: lastLineItem, indent } : null;
      continue;
    }
    // Prose after a list ends it.
    listLead = '';
    bulletLead = null;
    colonBullet = null;
    paragraph.push(trimmed);
  }
  flush();
  // The closing of the message, where a reply says what comes next: its last three items.
  for (let index = Math.max(0, items.length - 3); index < items.length; index++) {
    const item = items[index];
    if (item) item.closing = true;
  }
  return items;
}
