/**
 * The digest where the project memory meets it: a session note read as the
 * fold takes it, and a folded digest as the lists the Project Memory block
 * shows (the block's own merge rules, applied over every note ever folded
 * instead of the newest few).
 */
import { parseSessionNote } from './session-note.js';
import { ITEM_KINDS, type ItemKind, type MemoryItem } from './item-kinds.js';
import { parseDigest, type Digest, type DigestItem } from './digest-format.js';
import { foldDigest, type FoldNote } from './digest-fold.js';
import type { MergedNotes, ProjectNoteText } from './session-note.js';

export * from './digest-format.js';
export * from './digest-fold.js';
export * from './digest-marks.js';

/**
 * A session note as the fold takes it: the note's own reader, so the digest and the block read a note alike.
 *
 * @param note - the note as read back.
 */
export function foldNoteOf(note: ProjectNoteText): FoldNote {
  return parseSessionNote({ uri: note.uri, content: typeof note.content === 'string' ? note.content : '' });
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
