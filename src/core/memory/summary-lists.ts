/**
 * A compaction summary read as the model's items: the closing lists the
 * compaction context asks for (item-kinds.ts, `closingList`) and the sections
 * of the host's own templates that say the same — OpenCode 1.x's
 * (`## Goal`, `## Instructions`, `## Discoveries`, `## Accomplished`,
 * `## Relevant files / directories`) and 2.x's (`## Progress` with
 * `### Done` / `### In Progress` / `### Blocked`, `## Key Decisions`,
 * `## Next Steps`, `## Relevant Files`). Goal, instructions, discoveries and
 * what was done stay prose: they are what the summary's quote is for.
 *
 * Text is data: an item is one plain line (sanitized, secrets redacted, no
 * markup left at its start), so nothing in a summary can become a heading or
 * a field of the note it is written to, or of the block that shows it.
 */
import { redactSecrets } from '../text/secrets.js';
import { sanitizeText } from '../text/sanitize.js';
import { normalizeLineBreaks, splitLines } from '../text/line-breaks.js';
import { closesFence, openingFence, type Fence } from '../text/fences.js';
import { ITEM_KINDS, KIND_ORDER, type ItemKind, type MemoryItem } from './item-kinds.js';

/** A summary as items and the prose that did not become one. */
export interface SummaryLists {
  /** Model items, in the summary's order, at most each kind's `maxInNote`. */
  items: MemoryItem[];
  /** The summary without the sections read as items (their headings included). */
  prose: string;
}

/** Longest summary read, in characters: OpenCode caps its summaries well below. */
const MAX_SUMMARY_CHARS = 100_000;
/** Longest item kept, in characters: the note's writer cuts it further. */
const MAX_ITEM_CHARS = 600;
/** Longest line read as a label (`**Remaining:**`, `Next steps:`). */
const MAX_LABEL_CHARS = 60;

/**
 * Headings of the host templates, and the usual wordings of the closing lists, by the kind their items
 * are; the closing lists' own headings come from the table.
 */
const HEADING_ALIASES: ReadonlyArray<[ItemKind, readonly string[]]> = [
  ['decision', ['key decisions', 'decisions made', 'decisions taken', 'technical decisions', 'design decisions']],
  ['reversed', ['decisions reversed', 'reverted decisions', 'dropped decisions', 'abandoned approaches']],
  ['problem', ['blocked', 'blockers', 'open issues', 'known issues', 'unresolved issues', 'remaining issues', 'pending issues', 'open questions', 'problems']],
  ['met', ['problems settled', 'resolved problems', 'resolved issues', 'solved problems', 'problems solved', 'fixed issues']],
  ['next', ['in progress', 'still in progress', 'active', 'next step', 'next move', 'next moves', 'remaining work', 'remaining', 'still to do', 'to do', 'todo', 'pending', 'work left', 'what is left', 'left to do']],
  ['file', ['relevant files', 'relevant files / directories', 'relevant files and directories', 'files', 'key files', 'files modified', 'files changed', 'files touched', 'working set']],
];

const KNOWN_HEADINGS: ReadonlyMap<string, ItemKind> = new Map([
  ...KIND_ORDER.flatMap((kind): Array<[string, ItemKind]> => {
    const list = ITEM_KINDS[kind].closingList;
    return list ? [[headingKey(list.heading), kind]] : [];
  }),
  ...HEADING_ALIASES.flatMap(([kind, names]) => names.map((name): [string, ItemKind] => [headingKey(name), kind])),
]);

/**
 * The kind a heading names: its whole text, or its first words (`In Progress / What to do next`,
 * `Next steps for phase 10`), longest first; `undefined` for a heading of prose.
 */
function kindOfHeading(text: string): ItemKind | undefined {
  const key = headingKey(text);
  const exact = KNOWN_HEADINGS.get(key);
  if (exact) return exact;
  const words = key.split(' ');
  for (let length = Math.min(words.length - 1, 4); length >= 1; length--) {
    const kind = KNOWN_HEADINGS.get(words.slice(0, length).join(' '));
    if (kind) return kind;
  }
  return undefined;
}

/** A heading's identity: lower case, letters, digits and single spaces; no numbering, marks or trailing colon. */
function headingKey(text: string): string {
  return text
    .toLowerCase()
    .replace(/\(.*?\)/g, ' ')
    .replace(/[^\p{L}\p{N}/&]+/gu, ' ')
    .replace(/^\s*\d+\s+/, '')
    .replace(/\s*([/&])\s*/g, ' $1 ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A line that opens a section: a markdown heading, or a short bold or colon-ended label alone on its line. */
function headingOf(line: string): { level: number; text: string } | null {
  const hashes = /^(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line);
  if (hashes) return { level: (hashes[1] as string).length, text: hashes[2] as string };
  if (line.length > MAX_LABEL_CHARS) return null;
  // A label is a level below any heading: `**Remaining:**` under `## Accomplished` opens a part of it.
  // A bold line without a colon is a label only when it names a kind: `**Use SQLite**` among decisions is one.
  const bold = /^\*\*([^*]+?)(:?)\*\*(:?)$/.exec(line) ?? /^__([^_]+?)(:?)__(:?)$/.exec(line);
  if (bold && (bold[2] || bold[3] || kindOfHeading(bold[1] as string))) return { level: 7, text: bold[1] as string };
  const colon = /^([\p{L}][\p{L}\p{N} /&'-]*):$/u.exec(line);
  if (colon) return { level: 7, text: colon[1] as string };
  return null;
}

const BULLET = /^(?:[-*+•]|\d{1,3}[.)])\s+/;
const CHECKBOX = /^\[([ xX✓✔-])\]\s*/;
/** Marks a model puts before an item to say it is done or not. */
const DONE_MARK = /^(?:✅|✔️?|☑️?|✓)\s*/u;
const OPEN_MARK = /^(?:🔲|⬜|☐|❌|⏳|🚧|🔄|⚠️?|❗)\s*/u;
const NOTHING = /^\(?(?:none|n\/a|nothing|nothing yet|none yet|none so far|no open problems|no reversed decisions|no settled problems|no next steps|no decisions|—|–|-)\.?\)?\.?$/i;

/** One item's text as one plain line, or '' for nothing worth keeping. */
function itemText(raw: string): string {
  const plain = redactSecrets(sanitizeText(raw))
    .text.replace(/\[\[|\]\]/g, '')
    .replace(/`{3,}|~{3,}/g, '')
    .replace(/\*\*|__/g, '')
    .replace(/\s+/g, ' ')
    .replace(/^[#>\s*+-]+/, '')
    .trim();
  if (NOTHING.test(plain)) return '';
  return plain.length > MAX_ITEM_CHARS ? plain.slice(0, MAX_ITEM_CHARS) : plain;
}

/** The path a files item names: its first backticked path, else its first word that looks like one. */
function pathOf(raw: string): string {
  const quoted = /`([^`\s]+)`/.exec(raw)?.[1];
  const candidate = quoted ?? raw.replace(/\*\*/g, '').trim().split(/\s+/)[0] ?? '';
  const path = candidate.replace(/[,;:]+$/, '');
  return /[/\\.]/.test(path) && !/^https?:/i.test(path) ? itemText(path) : '';
}

/**
 * Whether a section's lines stay in the prose: those of no kind, and the files, of which only the paths
 * become items (what the summary says of each file is prose).
 */
function inProse(section: { kind: ItemKind | null }): boolean {
  return section.kind === null || section.kind === 'file';
}

/**
 * The model's items of a compaction summary, and the summary's prose without them.
 *
 * @param summary - the summary as the host stored it.
 */
export function parseSummaryLists(summary: string): SummaryLists {
  const items: MemoryItem[] = [];
  const counts = new Map<ItemKind, number>();
  const seen = new Set<string>();
  const prose: string[] = [];
  // The section being read: its kind (null: prose) and the level of the heading that opened it.
  let section: { kind: ItemKind | null; level: number } = { kind: null, level: 0 };
  let sub: { kind: ItemKind | null; level: number } | null = null;
  let fence: Fence | null = null;
  const add = (kind: ItemKind, text: string): void => {
    const count = counts.get(kind) ?? 0;
    const key = `${kind}\u0000${text.toLowerCase()}`;
    if (!text || count >= ITEM_KINDS[kind].maxInNote || seen.has(key)) return;
    seen.add(key);
    counts.set(kind, count + 1);
    items.push({ kind, text, source: 'model' });
  };
  for (const raw of splitLines(normalizeLineBreaks(summary.slice(0, MAX_SUMMARY_CHARS)))) {
    const line = raw.trim();
    const current = sub ?? section;
    if (fence) {
      if (closesFence(raw, fence)) fence = null;
      if (inProse(current)) prose.push(raw);
      continue;
    }
    const opening = openingFence(raw);
    if (opening) {
      fence = opening;
      if (inProse(current)) prose.push(raw);
      continue;
    }
    const heading = BULLET.test(line) ? null : headingOf(line);
    if (heading) {
      const kind = kindOfHeading(heading.text) ?? null;
      if (heading.level <= section.level || section.level === 0) {
        // A section of its own: a known kind, or prose.
        section = { kind, level: heading.level };
        sub = null;
      } else {
        // Part of the section: a known kind of its own, or the section's kind (`### Backend` under the files).
        sub = { kind: kind ?? section.kind, level: heading.level };
      }
      if (inProse(sub ?? section)) prose.push(raw);
      continue;
    }
    if (inProse(current)) prose.push(raw);
    if (current.kind === null) continue;
    if (!line) continue;
    let text = line.replace(BULLET, '');
    const box = CHECKBOX.exec(text);
    if (box) text = text.slice(box[0].length);
    const done = (box !== null && box[1] !== ' ' && box[1] !== '-') || DONE_MARK.test(text);
    text = text.replace(DONE_MARK, '').replace(OPEN_MARK, '');
    // What is ticked off among next steps or open problems was done: not a step or a problem any more.
    if (done && (current.kind === 'next' || current.kind === 'problem')) continue;
    // A label that introduces nested items (`- Backend:`) is not an item itself.
    if (/:\s*$/.test(text) && text.length <= MAX_LABEL_CHARS) continue;
    add(current.kind, current.kind === 'file' ? pathOf(text) : itemText(text));
  }
  return { items, prose: prose.join('\n').replace(/\n{3,}/g, '\n\n').trim() };
}
