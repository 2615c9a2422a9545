/**
 * The digest where the project memory meets it: a session note read as the
 * fold takes it, and a folded digest as the lists the Project Memory block
 * shows (the block's own merge rules, applied over every note ever folded
 * instead of the newest few).
 */
import { splitLines } from '../text/line-breaks.js';
import { ITEM_KINDS, MODEL_MARK, type ItemKind, type MemoryItem } from './item-kinds.js';
import { parseDigest, type Digest, type DigestItem } from './digest-format.js';
import { foldDigest, type FoldNote } from './digest-fold.js';
import type { MergedNotes, ProjectNoteText } from './project-memory.js';

export * from './digest-format.js';
export * from './digest-fold.js';

/** Longest note read, in characters: a note the plugin writes is a few kilobytes. */
const MAX_NOTE_CHARS = 64 * 1024;
const FIELD = /^\*\*(Session|Timestamp)\*\*:\s*(.*)$/;
const PLACEHOLDER = /^_.*_$/;

/**
 * A session note's items with their sources, read from the headings of the kinds' table: an item marked
 * `(summary)` is the model's, any other was extracted. Lines under an unknown heading are ignored.
 *
 * @param note - the note as read back.
 */
export function foldNoteOf(note: ProjectNoteText): FoldNote {
  const kindOf = new Map<string, ItemKind>(Object.entries(ITEM_KINDS).map(([kind, spec]) => [spec.noteHeading.toLowerCase(), kind as ItemKind]));
  const parsed: FoldNote = { uri: note.uri, session: '', timestamp: '', items: [] };
  let kind: ItemKind | null = null;
  for (const raw of splitLines(typeof note.content === 'string' ? note.content.slice(0, MAX_NOTE_CHARS) : '')) {
    const line = raw.trim();
    const heading = /^##\s+(.+?)\s*#*$/.exec(line);
    if (heading && !line.startsWith('###')) {
      kind = kindOf.get((heading[1] as string).toLowerCase()) ?? null;
      continue;
    }
    const field = FIELD.exec(line);
    if (field) {
      if (field[1] === 'Session') parsed.session = (field[2] as string).trim().slice(0, 100);
      else parsed.timestamp = (field[2] as string).trim().slice(0, 40);
      continue;
    }
    if (kind === null || !/^[-*]\s+/.test(line)) continue;
    let text = line.replace(/^[-*]\s+/, '');
    if (PLACEHOLDER.test(text)) continue;
    const model = text.startsWith(`${MODEL_MARK} `);
    if (model) text = text.slice(MODEL_MARK.length + 1);
    // A concept is listed as its link.
    if (kind === 'concept') text = text.replace(/^\[\[(.*)\]\]$/, '$1');
    const item: MemoryItem = { kind, text, source: model ? 'model' : 'heuristic' };
    parsed.items.push(item);
  }
  return parsed;
}

/** An item as the block renders it: with the time it was last confirmed. */
export type DigestBlockItem = MemoryItem & { at: string };

/**
 * The digest's items by kind, ranked (the model's first, then by decay) and cut to what the block shows,
 * each with the start of the day it was last confirmed, the shape the block renders items from.
 *
 * @param digest - the digest with the unfolded notes folded in.
 */
export function digestBlockItems(digest: Digest): Record<ItemKind, DigestBlockItem[]> {
  const byKind = Object.fromEntries(Object.keys(ITEM_KINDS).map((kind) => [kind, [] as DigestBlockItem[]])) as Record<ItemKind, DigestBlockItem[]>;
  const open = new Set(digest.items.filter((item) => item.kind === 'problem').map((item) => item.text.toLowerCase()));
  for (const item of digest.items) {
    const list = byKind[item.kind];
    // A problem met before and open again is shown once, as open.
    if (list.length >= ITEM_KINDS[item.kind].maxInBlock || (item.kind === 'met' && open.has(item.text.toLowerCase()))) continue;
    list.push({ kind: item.kind, text: item.text, source: item.source, at: item.lastConfirmed ? `${item.lastConfirmed}T00:00:00.000Z` : '' });
  }
  return byKind;
}

function dated(item: DigestItem): string {
  return item.lastConfirmed ? `- (${item.lastConfirmed}) ${item.text}` : `- ${item.text}`;
}

/**
 * The digest, with the notes it has not folded yet folded in, as the block's lists: each kind ranked
 * (the model's first, then by decay), cut to what the block shows, decisions and problems dated by
 * when they were last confirmed.
 *
 * @param digest - the digest note as read, or `null` when the project has none yet.
 * @param notes - its notes newer than the digest's last folded one.
 * @param now - the time ranked at, UTC milliseconds.
 */
export function digestLists(digest: ProjectNoteText | null, notes: readonly ProjectNoteText[], now: number): { merged: MergedNotes; digest: Digest } {
  const read = parseDigest(digest?.content ?? '', '', '');
  const folded = foldDigest(read, notes.map(foldNoteOf), now).digest;
  const of = (kind: DigestItem['kind']): DigestItem[] => folded.items.filter((item) => item.kind === kind).slice(0, ITEM_KINDS[kind].maxInBlock);
  const open = new Set(folded.items.filter((item) => item.kind === 'problem').map((item) => item.text.toLowerCase()));
  return {
    digest: folded,
    merged: {
      problems: of('problem').map(dated),
      met: of('met')
        .filter((item) => !open.has(item.text.toLowerCase()))
        .map(dated),
      next: of('next').map((item) => item.text),
      decisions: of('decision').map(dated),
      concepts: of('concept').map((item) => item.text),
      files: of('file').map((item) => item.text),
    },
  };
}
