/**
 * The file store's reads, answered as data straight from the folder's
 * index (folder-index.ts) and the files: search hits, recent files,
 * related concepts, a note, a folder's notes. Refusals are thrown as
 * {@link ToolError} with maenifold's codes; the store turns them into values.
 */
import { lstat, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { frontmatterFields, MEMORY_SCHEME, memoryFilePath, normalizeMemoryConcept, splitMemoryFile } from '../../../core/memory/memory-format.js';
import { compareHits, newestEntries, RELATED_STEP_FILES, relatedConceptSteps, type ConceptFile, type ScoredHit, type SearchableEntry, type SearchAnswer } from '../../../core/memory/memory-queries.js';
import { createTimeSlicer } from '../../../core/text/time-slicer.js';
import pLimit from 'p-limit';
import type { ActivityItem, RecentQuery, RelatedQuery, Relation, SearchHit, SearchQuery, StoredNote } from '../../../core/memory/memory-answers.js';
import type { FolderIndex } from './folder-index.js';
import type { TaskRunner } from '../../pool/task-runner.js';
import { ToolError, validateRelativePath } from './file-store-args.js';

/** A read that failed in the pool rather than in maenifold's rules (retryable, like a disk error). */
export class PoolError extends Error {}

/** What the reads use of the store. */
export interface ReadSettings {
  memoryDir: string;
  index: FolderIndex;
  runner: TaskRunner;
  now(): number;
}

/** The reads of the file store. */
export interface FileStoreReads {
  readNote(uri: string): Promise<StoredNote>;
  listNotes(folder: string): Promise<string[]>;
  search(query: SearchQuery): Promise<SearchHit[]>;
  recent(query: RecentQuery): Promise<ActivityItem[]>;
  related(query: RelatedQuery): Promise<Relation[]>;
}

const ACTIVITY_FILTERS = ['all', 'thinking', 'memory', 'assumptions', 'chat'];

/**
 * Characters of index entries (their words, lead and title) one search task carries: copying a part to a
 * worker holds the hook thread, about 10–20 ms a megabyte of these small objects, and a 10,000-file index
 * is about 7 MB of them.
 */
export const SEARCH_PART_CHARS = 128 * 1024;
/** Search tasks in the pool at once: one a worker, so a search never queues other work behind dozens of parts. */
export const SEARCH_PARTS_IN_FLIGHT = 2;
/** Index entries RecentActivity reads between two chances to hand the thread back. */
const RECENT_STEP_ENTRIES = 256;

function integer(value: number | undefined, key: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value)) throw new ToolError('INVALID_ARGUMENT', `Parameter '${key}' must be an integer`);
  return value;
}

/**
 * @param settings - see {@link ReadSettings}.
 */
export function createFileStoreReads(settings: ReadSettings): FileStoreReads {
  const { memoryDir, index, runner } = settings;

  return {
    async readNote(identifier) {
      const rel = validateRelativePath(identifier.replace(/^memory:\/\//, '').replace(/\.md$/i, ''), 'identifier');
      const uri = `${MEMORY_SCHEME}${rel}`;
      const path = memoryFilePath(memoryDir, uri);
      let file: string;
      try {
        // A FIFO named like a note would never finish reading, and a huge note would be read on the hook thread.
        const stat = await lstat(path);
        if (!stat.isFile()) throw new ToolError('NOT_FOUND', `Memory file not found: ${identifier}`);
        if (stat.size > index.maxNoteBytes) throw new ToolError('VALIDATION_ERROR', `Memory file ${identifier} is ${stat.size} bytes, more than the ${index.maxNoteBytes} read`);
        file = await readFile(path, 'utf8');
      } catch (error) {
        if (error instanceof ToolError) throw error;
        throw new ToolError('NOT_FOUND', `Memory file not found: ${identifier}`);
      }
      const { yaml, body } = splitMemoryFile(file);
      // Read on the hook thread, mostly for the body alone: the frontmatter is parsed when the title is asked for.
      let title: string | undefined;
      return {
        uri,
        content: body,
        get title(): string {
          if (title === undefined) {
            const field = frontmatterFields(yaml)['title'];
            title = typeof field === 'string' ? field : rel;
          }
          return title;
        },
      };
    },

    async listNotes(folder) {
      const rel = validateRelativePath(folder.replace(/^memory:\/\//, ''), 'path');
      let names: string[];
      try {
        names = (await readdir(join(memoryDir, ...(rel ? rel.split('/') : [])))).filter((name) => !name.startsWith('.')).sort();
      } catch {
        throw new ToolError('NOT_FOUND', `Directory not found: memory://${rel}`);
      }
      return names.filter((name) => name.toLowerCase().endsWith('.md')).map((name) => `${MEMORY_SCHEME}${rel ? `${rel}/` : ''}${name.slice(0, -3)}`);
    },

    async search(query) {
      const pageSize = integer(query.pageSize, 'pageSize', 10);
      const snapshot = await index.refresh();
      // Each file scores alone, so the index is searched a part at a time and the parts' best hits merged:
      // the copy of a part to a worker is made on the hook thread, and the whole index is tens of megabytes.
      const limit = pLimit(SEARCH_PARTS_IN_FLIGHT);
      const slicer = createTimeSlicer();
      const answers: Promise<SearchAnswer>[] = [];
      const searchPart = (entries: SearchableEntry[]): Promise<SearchAnswer> =>
        limit(async () => {
          const found = await runner.run('searchMemoryIndex', { entries, query: query.query, pageSize });
          if (!found.ok) throw new PoolError(`SearchMemories failed in the pool: ${found.error.code}: ${found.error.message}`);
          return found.value;
        });
      let part: SearchableEntry[] = [];
      let chars = 0;
      for (const { uri, title, concepts, lead, words, mtimeMs } of snapshot.entries.values()) {
        part.push({ uri, title, concepts, lead, words, mtimeMs });
        chars += words.length + lead.length + title.length;
        if (chars < SEARCH_PART_CHARS) continue;
        answers.push(searchPart(part));
        part = [];
        chars = 0;
        if (slicer.due) await slicer.yield();
      }
      // An empty index still answers, or refuses the query, as a full one does.
      if (part.length > 0 || answers.length === 0) answers.push(searchPart(part));
      const scored: ScoredHit[] = [];
      for (const found of await Promise.all(answers)) {
        // maenifold prints this refusal as plain text, without a code.
        if (!found.ok) throw new ToolError('', found.message);
        for (const hit of found.results) scored.push({ hit, mtimeMs: snapshot.entries.get(hit.path)?.mtimeMs ?? 0 });
      }
      return scored.sort(compareHits).slice(0, Math.max(0, pageSize)).map((item) => item.hit);
    },

    async recent(query) {
      const filter = (query.filter ?? 'all').toLowerCase();
      if (!ACTIVITY_FILTERS.includes(filter)) throw new ToolError('VALIDATION_ERROR', `Unknown filter '${filter}'.`);
      if (query.withinMs !== undefined && !(query.withinMs >= 0)) throw new ToolError('VALIDATION_ERROR', `Invalid timespan of ${query.withinMs} ms.`);
      const activity = {
        limit: integer(query.limit, 'limit', 10),
        spanMs: query.withinMs ?? null,
        filter: filter as RecentQuery['filter'] & string,
        includeContent: query.includeContent === true,
      };
      const snapshot = await index.refresh();
      // One pass over the index, the thread handed back between steps once a slice is spent.
      const slicer = createTimeSlicer();
      const newest = newestEntries(activity, settings.now());
      let read = 0;
      for (const entry of snapshot.entries.values()) {
        newest.add(entry);
        if (++read % RECENT_STEP_ENTRIES === 0 && slicer.due) await slicer.yield();
      }
      return newest.items();
    },

    async related(query) {
      const concept = normalizeMemoryConcept(query.concept);
      const maxEntities = integer(query.maxEntities, 'maxEntities', 20);
      const snapshot = await index.refresh();
      const conceptId = snapshot.conceptIds.get(concept);
      if (conceptId === undefined || snapshot.blocked.has(concept)) return [];
      // Proportional to the concept's files, not to the folder: cheaper here than copying the index to a worker,
      // and read in steps, the thread handed back between them once a slice is spent (a concept most files
      // link is thousands of them).
      const slicer = createTimeSlicer();
      const files: ConceptFile[] = [];
      let read = 0;
      for (const uri of snapshot.postings.get(concept) ?? []) {
        const entry = snapshot.entries.get(uri);
        const ids = snapshot.idsOf.get(uri);
        if (entry && ids) files.push({ uri, mtimeMs: entry.mtimeMs, ids });
        if (++read % RELATED_STEP_FILES === 0 && slicer.due) await slicer.yield();
      }
      const blocked = new Set([...snapshot.blocked].map((name) => snapshot.conceptIds.get(name) ?? -1));
      const steps = relatedConceptSteps(conceptId, files, snapshot.conceptNames, maxEntities, blocked);
      for (;;) {
        const step = steps.next();
        if (step.done) return step.value;
        if (slicer.due) await slicer.yield();
      }
    },
  };
}
