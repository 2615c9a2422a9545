/**
 * The kinds of item a project's memory holds, in one table: the heading a
 * compaction note files each under, the heading the Project Memory block
 * shows it under, and how many of each are kept. The note's writer and
 * reader, the digest and the block all read this table, so a new kind is
 * added here and where it is found, nowhere else.
 */

/** What an item says about the project. */
export type ItemKind = 'decision' | 'reversed' | 'problem' | 'next' | 'met' | 'concept' | 'file';

/**
 * Who wrote an item: the model, in its compaction summary (its closing lists
 * or the host template's sections), or the plugin's own extraction.
 */
export type ItemSource = 'model' | 'heuristic';

/** One item of memory, as a note or the digest keeps it. */
export interface MemoryItem {
  kind: ItemKind;
  /** One plain line. */
  text: string;
  source: ItemSource;
}

/**
 * The mark a note puts before an item the model wrote (`- (summary) …`); an
 * item without it was extracted. Notes written before items had sources
 * carry no mark and read as extracted.
 */
export const MODEL_MARK = '(summary)';

/**
 * How a kind lives across a project's notes.
 * - `accumulates`: every note counts, newest first (what was decided, the topics);
 * - `newest-sessions`: a kind that describes a session's state when it compacted: only the newest note of
 *   each session counts (an older one was superseded), and only the newest `sessions` sessions.
 */
export type MemoryRule = { kind: 'accumulates' } | { kind: 'newest-sessions'; sessions: number };

/** How a kind is filed and shown. */
export interface ItemKindSpec {
  /** The `## ` heading of a compaction note's list. */
  noteHeading: string;
  /** The `### ` heading of the Project Memory block; '' for a kind the block never shows. */
  blockHeading: string;
  /** Most items a note lists. */
  maxInNote: number;
  /** Most items the block shows. */
  maxInBlock: number;
  /** Which notes count for the kind. */
  memory: MemoryRule;
  /** Whether the block dates each item by the note that last said it. */
  dated: boolean;
  /** `list`: one line per item under the block heading; `inline`: one line, comma-separated. */
  shown: 'list' | 'inline';
  /** The note writes the heading with this line when the kind has no item; absent: no heading. */
  placeholder?: string;
  /**
   * The list the compaction model is asked to close its summary with (its heading and what goes in it),
   * read back from the summary as the model's items of this kind; absent: not asked for.
   */
  closingList?: { heading: string; hint?: string };
}

const ALL_SESSIONS = Number.MAX_SAFE_INTEGER;

/**
 * Every kind, in the order the block shows them: the block's precedence, and the budget cuts from the
 * end. Within a kind the model's items come first and extracted ones fill what it left out.
 */
export const ITEM_KINDS: Readonly<Record<ItemKind, ItemKindSpec>> = {
  problem: {
    noteHeading: 'Open Problems',
    blockHeading: 'Open problems',
    maxInNote: 10,
    maxInBlock: 10,
    memory: { kind: 'newest-sessions', sessions: ALL_SESSIONS },
    dated: true,
    shown: 'list',
    closingList: { heading: 'Open problems' },
  },
  next: {
    noteHeading: 'In Progress',
    blockHeading: 'In progress and next steps',
    maxInNote: 10,
    maxInBlock: 8,
    // Older plans were picked up or dropped since.
    memory: { kind: 'newest-sessions', sessions: 2 },
    dated: false,
    shown: 'list',
    closingList: { heading: 'Next steps' },
  },
  decision: {
    noteHeading: 'Decisions Made',
    blockHeading: 'Decisions',
    maxInNote: 20,
    maxInBlock: 14,
    memory: { kind: 'accumulates' },
    dated: true,
    shown: 'list',
    placeholder: '_No decisions extracted_',
    closingList: { heading: 'Decisions', hint: 'each with its reason' },
  },
  met: {
    noteHeading: 'Problems Met',
    blockHeading: 'Problems met before (settled or worked around)',
    maxInNote: 10,
    maxInBlock: 6,
    memory: { kind: 'newest-sessions', sessions: ALL_SESSIONS },
    dated: true,
    shown: 'list',
    closingList: { heading: 'Settled problems', hint: 'and how' },
  },
  // A decision that no longer holds: never shown; it takes the decision it names out of the project's memory.
  reversed: {
    noteHeading: 'Decisions Reversed',
    blockHeading: '',
    maxInNote: 10,
    maxInBlock: 0,
    memory: { kind: 'accumulates' },
    dated: false,
    shown: 'list',
    closingList: { heading: 'Reversed decisions', hint: 'the earlier decision as it was said' },
  },
  concept: {
    noteHeading: 'Key Concepts',
    blockHeading: 'Key concepts',
    maxInNote: 20,
    maxInBlock: 12,
    memory: { kind: 'accumulates' },
    dated: false,
    shown: 'inline',
  },
  file: {
    noteHeading: 'Working Set',
    blockHeading: 'Files in play',
    maxInNote: 50,
    maxInBlock: 10,
    memory: { kind: 'newest-sessions', sessions: 1 },
    dated: false,
    shown: 'inline',
    placeholder: '_No files touched_',
  },
};

/** The kinds in the block's order. */
export const KIND_ORDER: readonly ItemKind[] = Object.keys(ITEM_KINDS) as ItemKind[];

/** The kinds in a note's order: the topics first (maenifold reads the links), then the lists, the files last. */
export const NOTE_ORDER: readonly ItemKind[] = ['concept', 'decision', 'reversed', 'problem', 'next', 'met', 'file'];

/** The kinds the compaction model is asked to close its summary with, in the order it is asked. */
export const CLOSING_LIST_ORDER: readonly ItemKind[] = ['decision', 'reversed', 'problem', 'met', 'next'];

/** The kind a note's `## ` heading files its items under, or `null` for a heading no kind has. */
export function kindOfNoteHeading(heading: string): ItemKind | null {
  const wanted = heading.trim().toLowerCase();
  return KIND_ORDER.find((kind) => ITEM_KINDS[kind].noteHeading.toLowerCase() === wanted) ?? null;
}
