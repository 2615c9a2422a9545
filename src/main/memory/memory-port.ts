/**
 * The memory port: what the hooks and the delivery ask of a memory store,
 * with typed inputs and answers as data. Two adapters implement it: the
 * maenifold CLI (cli/maenifold-client.ts), which parses maenifold's output
 * once, and the built-in file store (files/file-store.ts), which answers
 * from its index. Every operation resolves to a value; none throws.
 */
import type {
  ActivityItem,
  NoteInput,
  RecentQuery,
  RelatedQuery,
  Relation,
  SearchHit,
  SearchQuery,
  StoredNote,
  ThoughtInput,
  ThoughtReceipt,
  WrittenNote,
} from '../../core/memory/memory-answers.js';

export type * from '../../core/memory/memory-answers.js';

/** Why an operation gave no result. */
export type MemoryErrorCode =
  | 'CLI_MISSING'
  | 'PAYLOAD_TOO_LARGE'
  | 'TIMEOUT'
  | 'OUTPUT_TOO_LARGE'
  | 'SPAWN_FAILED'
  | 'CRASHED'
  | 'BAD_OUTPUT'
  | 'TOOL_ERROR'
  /** The file store could not read or write the disk (retryable). */
  | 'IO_ERROR';

/** A failed operation; `toolCode` is maenifold's own code (`WIKILINK_REQUIRED`, …) when it gave one. */
export interface MemoryError {
  code: MemoryErrorCode;
  message: string;
  toolCode?: string;
}

/** An operation's result as a value. */
export type MemoryResult<T> = { ok: true; value: T } | { ok: false; error: MemoryError };

/** Per-call limits. */
export interface CallOptions {
  timeoutMs: number;
  signal?: AbortSignal;
}

/** A memory store, as the plugin uses it. */
export interface MemoryPort {
  /** False when there is nothing to talk to (no CLI found): callers skip their work. */
  readonly available: boolean;
  /**
   * Counts the writes the store has taken, so a context built before one can be
   * rebuilt; absent when the store cannot tell (the CLI's graph changes on Sync).
   */
  readonly revision?: () => number;
  /** WriteMemory: a note with a WikiLink outside code; a title with the slug of an existing note replaces it. */
  writeNote(note: NoteInput, options: CallOptions): Promise<MemoryResult<WrittenNote>>;
  /** SequentialThinking: one thought, starting, continuing or closing a session. */
  appendThought(thought: ThoughtInput, options: CallOptions): Promise<MemoryResult<ThoughtReceipt>>;
  /** ReadMemory: a note by its `memory://` URI (`NOT_FOUND` when absent). */
  readNote(uri: string, options: CallOptions): Promise<MemoryResult<StoredNote>>;
  /** ListMemories: the `memory://` URIs of the notes directly in a folder (`NOT_FOUND` when it is absent). */
  listNotes(folder: string, options: CallOptions): Promise<MemoryResult<string[]>>;
  /** SearchMemories: hits, best first; none when nothing matched. */
  search(query: SearchQuery, options: CallOptions): Promise<MemoryResult<SearchHit[]>>;
  /** RecentActivity: recently modified files, newest first. */
  recent(query: RecentQuery, options: CallOptions): Promise<MemoryResult<ActivityItem[]>>;
  /** BuildContext: the concept's direct relations, strongest first; none for an unknown concept. */
  related(query: RelatedQuery, options: CallOptions): Promise<MemoryResult<Relation[]>>;
}
