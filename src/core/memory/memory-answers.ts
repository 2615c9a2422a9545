/**
 * What the memory port takes and gives, as data: maenifold's tools with
 * typed inputs, and their answers already parsed (the CLI adapter reads
 * maenifold's text once; the file store answers from its index). Types only.
 */

/** A note to write (WriteMemory). */
export interface NoteInput {
  title: string;
  /** Markdown; needs a `[[WikiLink]]` outside code. */
  content: string;
  /** Folder under the memory root, `/`-separated. */
  folder?: string;
  tags?: string[];
}

/** A written note. */
export interface WrittenNote {
  /** Its `memory://` URI; `null` when the store did not say. */
  uri: string | null;
}

/** A thought for a SequentialThinking session. */
export interface ThoughtInput {
  response: string;
  thoughts?: string;
  nextThoughtNeeded: boolean;
  /** Closes the session when `nextThoughtNeeded` is false; needs a WikiLink. */
  conclusion?: string;
  analysisType?: string;
  /** Absent to start a session (with `thoughtNumber` 0). */
  sessionId?: string;
  thoughtNumber: number;
  totalThoughts: number;
  cancel?: boolean;
  /** The agent named in the thought's heading. @default $AGENT_ID or 'agent' */
  agent?: string;
}

/** Where a thought landed. */
export interface ThoughtReceipt {
  /** `null` when the store answered without one: the session cannot be continued. */
  sessionId: string | null;
  thoughtNumber: number | null;
}

/** A note as read back (ReadMemory). */
export interface StoredNote {
  uri: string;
  title: string;
  /** The body, frontmatter removed. */
  content: string;
}

/** A search (SearchMemories). */
export interface SearchQuery {
  query: string;
  /** @default 'Hybrid' */
  mode?: 'Hybrid' | 'Semantic' | 'FullText';
  /** @default 10 */
  pageSize?: number;
}

/** One search hit, as SearchMemories' `data.results[]`. */
export interface SearchHit {
  title: string;
  /** `memory://` URI. */
  path: string;
  fusedScore: number;
  textScore: number;
  semanticScore: number;
  /** About 200 characters; may cut a WikiLink in two. */
  snippet: string;
}

/** Recent activity (RecentActivity). */
export interface RecentQuery {
  limit: number;
  /** Only files modified this recently, in ms; absent for all. */
  withinMs?: number;
  /** @default 'all' */
  filter?: 'all' | 'thinking' | 'memory' | 'assumptions' | 'chat';
  /** Whole first and last sections rather than snippets. */
  includeContent?: boolean;
}

/** A `## ` section as RecentActivity gives it; `heading` is absent for a snippet. */
export interface ActivitySection {
  heading?: string;
  content: string;
}

/** One recently modified file. */
export interface ActivityItem {
  /** The file's name: a session id or a note's slug. */
  id: string;
  /** `sequential`, `workflow` or `memory`. */
  kind: string;
  /** `yyyy-MM-dd HH:mm` (UTC), as maenifold prints it. */
  modified?: string;
  /** Given for notes. */
  title?: string;
  /** Given for thought sessions. */
  status?: string;
  first?: ActivitySection;
  last?: ActivitySection;
}

/** Relations of one concept (BuildContext). */
export interface RelatedQuery {
  concept: string;
  /** @default 2 */
  depth?: number;
  /** @default 20 */
  maxEntities?: number;
}

/** A concept related to the asked one. */
export interface Relation {
  /** As the store names it: the reader makes it printable. */
  name: string;
  /** Files in which both concepts appear. */
  cooccurrence: number;
  /** `memory://` URIs of some of them (at most three). */
  files: string[];
}
