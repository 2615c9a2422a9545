/**
 * A session's note, written and read in one place: the markdown a compaction
 * note (and the note that supersedes it when the summary arrives) carries,
 * and the items read back from it, each with its kind and who wrote it.
 *
 * The note files each kind under its stable `## ` heading (item-kinds.ts):
 * renaming one breaks what later sessions read back from older notes. An item
 * the model wrote is marked `- (summary) text`; notes written before items had
 * sources carry no mark and read as extracted.
 *
 * Everything read is data: each item becomes one plain line (no heading, no
 * link brackets, no control characters), and a line of an item can never be a
 * heading or a `**Session**:` field of the note, because the writer puts every
 * item on one `- ` line.
 */
import { sanitizeText } from '../text/sanitize.js';
import { LINE_BREAK, splitLines } from '../text/line-breaks.js';
import { cutAtBoundary } from '../text/boundary-cut.js';
import { ITEM_KINDS, kindOfNoteHeading, MODEL_MARK, NOTE_ORDER, type ItemKind, type MemoryItem } from './item-kinds.js';

/** A session's note as read back. */
export interface ParsedSessionNote {
  uri: string;
  session: string;
  /** ISO time of the note; '' when the note does not say. */
  timestamp: string;
  /** In the note's order: by heading, then as listed. */
  items: MemoryItem[];
}

/** The fields a session's note opens with. */
export interface SessionNoteFields {
  /** The session's id, already reduced to `[A-Za-z0-9_-]`. */
  session: string;
  /** The project's concept (`**Project**`). */
  projectConcept: string;
  projectKey: string;
  /** ISO time of the note: a superseding note is newer than the note it replaces. */
  timestamp: string;
}

/** Longest entry kept, in characters. */
const MAX_ITEM_CHARS = 300;
/** Longest item line read, in characters. */
const MAX_READ_ITEM_CHARS = 280;
/** Longest note read, in characters: a note the plugin writes is a few kilobytes. */
const MAX_NOTE_CHARS = 64 * 1024;

const FIELD = /^\*\*(Session|Timestamp)\*\*:\s*(.*)$/;
const PLACEHOLDER = /^_.*_$/;
const MARKED = `${MODEL_MARK} `;

/**
 * One list entry as plain text: on one line, without link brackets (a link
 * is the graph's to draw, not the session's text) and without backtick runs
 * that could open a code block and hide the links after it.
 */
function listItem(text: string): string {
  const plain = text.replace(/\[\[|\]\]/g, '').replace(/`{2,}/g, '`').replace(/\s+/g, ' ').trim();
  return `- ${cutAtBoundary(plain, MAX_ITEM_CHARS)}`;
}

/** Every break a reader honours as a space, first: `\s` misses NEL, and a break left in would end the `- ` line. */
function unbroken(text: string): string {
  return text.replace(LINE_BREAK, ' ');
}

/** An extracted item that happens to begin with the mark is not the model's: the mark is dropped. */
function withoutMark(text: string): string {
  let rest = text.trimStart();
  while (rest.startsWith(MODEL_MARK)) rest = rest.slice(MODEL_MARK.length).trimStart();
  return rest;
}

/** One item's line of the note. */
function noteLine(item: MemoryItem): string | null {
  const text = withoutMark(unbroken(item.text));
  if (item.kind === 'concept') {
    const name = text.replace(/[[\]`]/g, '').replace(/\s+/g, ' ').trim();
    return name ? `- [[${name}]]` : null;
  }
  if (item.kind === 'file' && item.source === 'heuristic') {
    const path = text.replace(/[`[\]]/g, '').trim();
    return path ? `- ${path}` : null;
  }
  const line = listItem(item.source === 'model' ? `${MARKED}${text}` : text);
  return line === '- ' || line === `- ${MODEL_MARK}` ? null : line;
}

/**
 * The markdown of a session's note: its fields, then each kind's items under its heading (model items
 * marked), capped by the kind's limit; a kind with a placeholder is always written, the others only when
 * they have items.
 *
 * @param fields - the note's fields.
 * @param items - the items, in the order each kind lists them.
 */
export function sessionNoteContent(fields: SessionNoteFields, items: readonly MemoryItem[]): string {
  const sections: string[] = [];
  for (const kind of NOTE_ORDER) {
    const spec = ITEM_KINDS[kind];
    const lines = items
      .filter((item) => item.kind === kind)
      .map(noteLine)
      .filter((line): line is string => line !== null)
      .slice(0, spec.maxInNote);
    if (lines.length === 0 && spec.placeholder === undefined) continue;
    sections.push(`## ${spec.noteHeading}`, '', lines.join('\n') || (spec.placeholder ?? ''), '');
  }
  return [
    '# Compaction Summary',
    '',
    `**Session**: ${fields.session}`,
    `**Project**: ${fields.projectConcept}`,
    `**Project key**: ${fields.projectKey}`,
    `**Timestamp**: ${fields.timestamp}`,
    '',
    ...sections,
    '## Session Context',
    '',
    'This summary keeps what the session learned before its context was truncated. Use BuildContext on the concepts above to restore working memory.',
    '',
  ].join('\n');
}

/**
 * One stored line as plain text on one line: no controls, no link brackets, no markup that opens a block.
 *
 * @param text - a line as stored.
 */
export function plainItem(text: string): string {
  // Breaks become spaces before sanitizing, which would drop VT, FF and NEL as controls and join the words around them.
  const plain = sanitizeText(text.replace(LINE_BREAK, ' '))
    .replace(/\[\[|\]\]/g, '')
    .replace(/`{3,}|~{3,}/g, '')
    .replace(/\s+/g, ' ')
    .replace(/^[#>\s-]+/, '')
    .trim();
  return cutAtBoundary(plain, MAX_READ_ITEM_CHARS);
}

/**
 * Reads a session's note: its session, its time and its items from their headings, each with its source;
 * lines under a heading no kind has are ignored.
 *
 * @param note - the note as read back (frontmatter removed or not: both parse).
 */
export function parseSessionNote(note: { uri: string; content: string }): ParsedSessionNote {
  const parsed: ParsedSessionNote = { uri: note.uri, session: '', timestamp: '', items: [] };
  let current: ItemKind | null = null;
  for (const raw of splitLines(note.content.slice(0, MAX_NOTE_CHARS))) {
    const line = raw.trim();
    const heading = /^##\s+(.+?)\s*#*$/.exec(line);
    if (heading && !line.startsWith('###')) {
      current = kindOfNoteHeading(heading[1] as string);
      continue;
    }
    const field = FIELD.exec(line);
    if (field) {
      if (field[1] === 'Session') parsed.session = (field[2] as string).trim().slice(0, 100);
      else parsed.timestamp = (field[2] as string).trim().slice(0, 40);
      continue;
    }
    if (current === null || !/^[-*]\s+/.test(line)) continue;
    let item = line.replace(/^[-*]\s+/, '');
    if (PLACEHOLDER.test(item)) continue;
    const model = item.startsWith(MARKED);
    if (model) item = item.slice(MARKED.length);
    const text = plainItem(item);
    if (text) parsed.items.push({ kind: current, text, source: model ? 'model' : 'heuristic' });
  }
  return parsed;
}

/** A compaction note as read back. */
export interface ProjectNoteText {
  uri: string;
  /** The note's body (frontmatter removed or not: both parse). */
  content: string;
}

/** The merged lists of a project's notes as lines, newest first, each item once (the digest's view of them). */
export interface MergedNotes {
  problems: string[];
  met: string[];
  next: string[];
  decisions: string[];
  concepts: string[];
  files: string[];
}
