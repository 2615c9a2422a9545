/**
 * The file store's reads, answered as data straight from the folder's
 * index (folder-index.ts) and the files: search hits, recent files,
 * related concepts, a note, a folder's notes. Refusals are thrown as
 * {@link ToolError} with maenifold's codes; the store turns them into values.
 */
import { lstat, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MEMORY_SCHEME, memoryFilePath, normalizeMemoryConcept, parseMemoryFile } from '../../../core/memory/memory-format.js';
import { recentActivity, relatedConcepts, type ConceptFile } from '../../../core/memory/memory-queries.js';
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
      const { frontmatter, body } = parseMemoryFile(file);
      const title = frontmatter['title'];
      return { uri, title: typeof title === 'string' ? title : rel, content: body };
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
      const entries = [...snapshot.entries.values()].map(({ uri, title, concepts, lead, words, mtimeMs }) => ({ uri, title, concepts, lead, words, mtimeMs }));
      const found = await runner.run('searchMemoryIndex', { entries, query: query.query, pageSize });
      if (!found.ok) throw new PoolError(`SearchMemories failed in the pool: ${found.error.code}: ${found.error.message}`);
      // maenifold prints this refusal as plain text, without a code.
      if (!found.value.ok) throw new ToolError('', found.value.message);
      return found.value.results;
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
      return recentActivity([...snapshot.entries.values()], activity, settings.now());
    },

    async related(query) {
      const concept = normalizeMemoryConcept(query.concept);
      const maxEntities = integer(query.maxEntities, 'maxEntities', 20);
      const snapshot = await index.refresh();
      // Proportional to the concept's files, not to the folder: cheaper here than copying the index to a worker.
      const files: ConceptFile[] = [];
      for (const uri of snapshot.postings.get(concept) ?? []) {
        const entry = snapshot.entries.get(uri);
        const ids = snapshot.idsOf.get(uri);
        if (entry && ids) files.push({ uri, mtimeMs: entry.mtimeMs, ids });
      }
      const conceptId = snapshot.conceptIds.get(concept);
      const blocked = new Set([...snapshot.blocked].map((name) => snapshot.conceptIds.get(name) ?? -1));
      if (conceptId === undefined || snapshot.blocked.has(concept)) return [];
      return relatedConcepts(conceptId, files, snapshot.conceptNames, maxEntities, blocked);
    },
  };
}
