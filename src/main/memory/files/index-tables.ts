/**
 * The tables of a folder's index: entries by URI, the files of each concept
 * (postings), and concept ids for counting in typed arrays. Kept in step by
 * `put` and `drop`, the only writers.
 */
import type { MemoryIndexEntry } from '../../../workers/protocol.js';

/** The index as the reads see it. */
export interface IndexSnapshot {
  entries: ReadonlyMap<string, MemoryIndexEntry>;
  /** Concept → URIs of the files that link it. */
  postings: ReadonlyMap<string, ReadonlySet<string>>;
  /** Concepts of `.wikilink-filter.json`. */
  blocked: ReadonlySet<string>;
  /** Concept ids: every concept ever seen gets one, for counting in typed arrays. */
  conceptIds: ReadonlyMap<string, number>;
  /** Concept names by id. */
  conceptNames: readonly string[];
  /** Each file's concepts as ids. */
  idsOf: ReadonlyMap<string, Int32Array>;
}

function addPostings(postings: Map<string, Set<string>>, entry: MemoryIndexEntry): void {
  for (const concept of entry.concepts) {
    let files = postings.get(concept);
    if (!files) postings.set(concept, (files = new Set()));
    files.add(entry.uri);
  }
}

function removePostings(postings: Map<string, Set<string>>, entry: MemoryIndexEntry): void {
  for (const concept of entry.concepts) {
    const files = postings.get(concept);
    files?.delete(entry.uri);
    if (files?.size === 0) postings.delete(concept);
  }
}

/** The tables and their two writers. */
export interface IndexTables {
  readonly entries: ReadonlyMap<string, MemoryIndexEntry>;
  /** Adds or replaces an entry. */
  put(entry: MemoryIndexEntry): void;
  /** Removes the entry of a URI, if any. */
  drop(uri: string): void;
  /** The tables as the reads see them, with the concepts the filter blocks. */
  snapshot(blocked: ReadonlySet<string>): IndexSnapshot;
}

/** Empty tables. */
export function createIndexTables(): IndexTables {
  const entries = new Map<string, MemoryIndexEntry>();
  const postings = new Map<string, Set<string>>();
  const conceptIds = new Map<string, number>();
  const conceptNames: string[] = [];
  const idsOf = new Map<string, Int32Array>();
  // Every concept ever seen keeps its id: ids index typed arrays sized by the name table.
  const idOf = (concept: string): number => {
    let id = conceptIds.get(concept);
    if (id === undefined) {
      id = conceptNames.push(concept) - 1;
      conceptIds.set(concept, id);
    }
    return id;
  };
  return {
    entries,
    put(entry) {
      const old = entries.get(entry.uri);
      if (old) removePostings(postings, old);
      entries.set(entry.uri, entry);
      idsOf.set(entry.uri, Int32Array.from(entry.concepts, idOf));
      addPostings(postings, entry);
    },
    drop(uri) {
      const old = entries.get(uri);
      if (!old) return;
      removePostings(postings, old);
      entries.delete(uri);
      idsOf.delete(uri);
    },
    snapshot: (blocked) => ({ entries, postings, blocked, conceptIds, conceptNames, idsOf }),
  };
}
