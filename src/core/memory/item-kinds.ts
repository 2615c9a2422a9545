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

/** How a kind is filed and shown. */
export interface ItemKindSpec {
  /** The `## ` heading of a compaction note's list. */
  noteHeading: string;
  /** The `### ` heading of the Project Memory block. */
  blockHeading: string;
  /** Most items a note lists. */
  maxInNote: number;
  /** Most items the block shows. */
  maxInBlock: number;
}

/** Every kind, in the order the block shows them. */
export const ITEM_KINDS: Readonly<Record<ItemKind, ItemKindSpec>> = {
  problem: { noteHeading: 'Open Problems', blockHeading: 'Open problems', maxInNote: 10, maxInBlock: 10 },
  next: { noteHeading: 'In Progress', blockHeading: 'In progress and next steps', maxInNote: 10, maxInBlock: 8 },
  decision: { noteHeading: 'Decisions Made', blockHeading: 'Decisions', maxInNote: 20, maxInBlock: 14 },
  met: { noteHeading: 'Problems Met', blockHeading: 'Problems met before (settled or worked around)', maxInNote: 10, maxInBlock: 6 },
  // A decision that no longer holds: never shown; it takes the decision it names out of the project's memory.
  reversed: { noteHeading: 'Decisions Reversed', blockHeading: '', maxInNote: 10, maxInBlock: 0 },
  concept: { noteHeading: 'Key Concepts', blockHeading: 'Key concepts', maxInNote: 20, maxInBlock: 12 },
  file: { noteHeading: 'Working Set', blockHeading: 'Files in play', maxInNote: 50, maxInBlock: 10 },
};

/** The kinds in the block's order. */
export const KIND_ORDER: readonly ItemKind[] = Object.keys(ITEM_KINDS) as ItemKind[];
