/**
 * The built-in memory store: the files maenifold itself writes, under
 * `$MAENIFOLD_ROOT/memory` (frontmatter, slugs, the H1 rule, SequentialThinking
 * session files), with maenifold's validation, written atomically, so
 * `maenifold --tool Sync` can adopt the folder unchanged. Reads answer from
 * the folder's index (folder-index.ts) in the shapes maenifold prints. As in
 * maenifold, a note whose title has the same slug as an existing file
 * replaces it. SequentialThinking is in file-store-thinking.ts, payload
 * readers in file-store-args.ts.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { formatFrontmatter, memoryConcepts, parseMemoryFile, sanitizeTitle, slugify } from '../../../core/memory/memory-markdown.js';
import { buildContextText, recentActivityText, relatedConcepts, type ActivityQuery, type ConceptFile } from '../../../core/memory/memory-queries.js';
import { normalizeMemoryConcept } from '../../../core/memory/memory-markdown.js';
import type { CliError, CliResult, MemoryStore } from '../cli/maenifold-client.js';
import { createFolderIndex, type FolderIndex } from './folder-index.js';
import type { TaskRunner } from '../../pool/task-runner.js';
import type { Logger } from '../../shared/logger.js';
import { writeFileAtomically } from '../../../io/atomic-file.js';
import { fail, integer, parseTimeSpan, text, ToolError, validateRelativePath } from './file-store-args.js';
import { createSequentialThinking } from './file-store-thinking.js';
import pLimit from 'p-limit';

/** The file store: a {@link MemoryStore} plus what the preview and shutdown need. */
export interface FileStore extends MemoryStore {
  readonly kind: 'files';
  /** `$MAENIFOLD_ROOT`. */
  readonly root: string;
  readonly memoryDir: string;
  readonly index: FolderIndex;
  /** Writes the index cache if it changed. */
  close(): Promise<void>;
}

/** Settings of {@link createFileStore}. */
export interface FileStoreSettings {
  root: string;
  stateDir: string;
  runner: TaskRunner;
  logger: Logger;
  /** The clock. @default Date.now */
  now?: () => number;
  /** The agent named in thought headings. @default $AGENT_ID or 'agent' */
  agent?: string;
  /** Index tuning (tests, benchmarks). */
  index?: { freshForMs?: number; persistDelayMs?: number; batchSize?: number };
}

const MAX_TITLE_CHARS = 200;

/**
 * @param settings - see {@link FileStoreSettings}.
 */
export function createFileStore(settings: FileStoreSettings): FileStore {
  const { root, logger } = settings;
  const now = settings.now ?? Date.now;
  const agent = settings.agent ?? process.env['AGENT_ID'] ?? 'agent';
  const memoryDir = join(root, 'memory');
  const index = createFolderIndex({ memoryDir, stateDir: settings.stateDir, runner: settings.runner, logger, ...settings.index });
  // Writes one at a time in this process; a thought also takes a lock shared with other processes.
  const oneWrite = pLimit(1);
  let writes = 0;
  const serially = <T>(work: () => Promise<T>): Promise<T> => oneWrite(work);
  const iso = (): string => new Date(now()).toISOString();
  const pathOf = (uri: string): string => `${join(memoryDir, ...uri.slice('memory://'.length).split('/'))}.md`;

  async function blockedConcepts(): Promise<Map<string, string>> {
    try {
      const parsed: unknown = JSON.parse(await readFile(join(memoryDir, '.wikilink-filter.json'), 'utf8'));
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return new Map();
      return new Map(Object.entries(parsed).map(([concept, reason]) => [normalizeMemoryConcept(concept), String(reason)]));
    } catch {
      return new Map(); // As maenifold: an unreadable filter blocks nothing.
    }
  }

  async function writeMemory(payload: Record<string, unknown>): Promise<unknown> {
    const rawTitle = text(payload, 'title', true) as string;
    const content = text(payload, 'content', true) as string;
    const folderArg = text(payload, 'folder');
    const tags = Array.isArray(payload['tags']) ? payload['tags'].map(String) : [];
    if (rawTitle.length >= MAX_TITLE_CHARS) {
      throw new ToolError('PATH_TOO_LONG', `Title is ${rawTitle.length} characters; titles must be shorter than ${MAX_TITLE_CHARS} characters.`);
    }
    const title = sanitizeTitle(rawTitle);
    const concepts = memoryConcepts(content);
    if (concepts.length === 0) {
      throw new ToolError('VALIDATION_ERROR', 'Content must contain at least one [[WikiLink]] concept outside code (fenced, indented or inline code is ignored) to connect to the knowledge graph.');
    }
    const filter = await blockedConcepts();
    const blocked = concepts.filter((concept) => filter.has(concept));
    if (blocked.length > 0) {
      throw new ToolError('FILTERED_WIKILINKS', `Content contains filtered WikiLinks: ${blocked.map((concept) => `[[${concept}]] (${filter.get(concept)})`).join(', ')}. Remove or replace them.`);
    }
    const folder = folderArg ? validateRelativePath(folderArg, 'folder path') : '';
    const slug = slugify(title);
    const uri = `memory://${folder ? `${folder}/` : ''}${slug}`;
    const stamp = iso();
    const body = content.trimStart().startsWith('# ') ? content : `# ${title}\n\n${content}`;
    const file = formatFrontmatter({ title, permalink: slug, type: 'memory', status: 'saved', created: stamp, modified: stamp, tags }) + body;
    await writeFileAtomically(pathOf(uri), file);
    writes += 1;
    index.invalidate();
    return { uri, checksum: createHash('sha256').update(file, 'utf8').digest('base64'), title, folder };
  }

  const sequentialThinking = createSequentialThinking({
    pathOf,
    now,
    agent,
    lockDir: join(settings.stateDir, 'locks'),
    logger,
    onWrite: () => {
      writes += 1;
      index.invalidate();
    },
  });

  async function readMemory(payload: Record<string, unknown>): Promise<unknown> {
    const identifier = text(payload, 'identifier', true) as string;
    const rel = validateRelativePath(identifier.replace(/^memory:\/\//, '').replace(/\.md$/i, ''), 'identifier');
    const uri = `memory://${rel}`;
    let file: string;
    try {
      file = await readFile(pathOf(uri), 'utf8');
    } catch {
      throw new ToolError('NOT_FOUND', `Memory file not found: ${identifier}`);
    }
    const { frontmatter, body } = parseMemoryFile(file);
    return { uri, title: frontmatter['title'] ?? rel, content: body, checksum: createHash('sha256').update(file, 'utf8').digest('base64'), frontmatter };
  }

  async function searchMemories(payload: Record<string, unknown>): Promise<CliResult<unknown>> {
    const query = text(payload, 'query', true) as string;
    const pageSize = integer(payload, 'pageSize', 10);
    const snapshot = await index.refresh();
    const entries = [...snapshot.entries.values()].map(({ uri, title, concepts, lead, words, mtimeMs }) => ({ uri, title, concepts, lead, words, mtimeMs }));
    const found = await settings.runner.run('searchMemoryIndex', { entries, query, pageSize });
    if (!found.ok) return fail('IO_ERROR', `SearchMemories failed in the pool: ${found.error.code}: ${found.error.message}`);
    if (!found.value.ok) return fail('TOOL_ERROR', `SearchMemories failed: ${found.value.message}`);
    return { ok: true, value: { query, mode: text(payload, 'mode') ?? 'Hybrid', page: 1, pageSize, totalResults: found.value.totalResults, results: found.value.results } };
  }

  async function recentActivity(payload: Record<string, unknown>): Promise<string> {
    const span = payload['timespan'];
    let spanMs: number | null = null;
    if (span !== undefined && span !== null) {
      const parsed = typeof span === 'string' ? parseTimeSpan(span) : undefined;
      if (parsed === undefined) throw new ToolError('VALIDATION_ERROR', `Invalid timespan '${String(span)}'. Use a TimeSpan such as '1.00:00:00' (1 day).`);
      spanMs = parsed;
    }
    const filter = (text(payload, 'filter') ?? 'all').toLowerCase();
    if (!['all', 'thinking', 'memory', 'assumptions', 'chat'].includes(filter)) throw new ToolError('VALIDATION_ERROR', `Unknown filter '${filter}'.`);
    const query: ActivityQuery = { limit: integer(payload, 'limit', 10), spanMs, filter: filter as ActivityQuery['filter'], includeContent: payload['includeContent'] === true };
    const snapshot = await index.refresh();
    return recentActivityText([...snapshot.entries.values()], query, now());
  }

  async function buildContext(payload: Record<string, unknown>): Promise<string> {
    const conceptName = text(payload, 'conceptName', true) as string;
    const concept = normalizeMemoryConcept(conceptName);
    const snapshot = await index.refresh();
    // Proportional to the concept's files, not to the folder: cheaper here than copying the index to a worker.
    const files: ConceptFile[] = [];
    for (const uri of snapshot.postings.get(concept) ?? []) {
      const entry = snapshot.entries.get(uri);
      const ids = snapshot.idsOf.get(uri);
      if (entry && ids) files.push({ uri, mtimeMs: entry.mtimeMs, ids });
    }
    const maxEntities = integer(payload, 'maxEntities', 20);
    const conceptId = snapshot.conceptIds.get(concept);
    const blocked = new Set([...snapshot.blocked].map((name) => snapshot.conceptIds.get(name) ?? -1));
    const related = conceptId === undefined || snapshot.blocked.has(concept) ? [] : relatedConcepts(conceptId, files, snapshot.conceptNames, maxEntities, blocked);
    return buildContextText(conceptName, related, maxEntities);
  }

  async function listMemories(payload: Record<string, unknown>): Promise<string> {
    const rel = validateRelativePath((text(payload, 'path') ?? '').replace(/^memory:\/\//, ''), 'path');
    let names: string[];
    try {
      names = (await readdir(join(memoryDir, ...(rel ? rel.split('/') : [])))).filter((name) => !name.startsWith('.')).sort();
    } catch {
      throw new ToolError('NOT_FOUND', `Directory not found: memory://${rel}`);
    }
    const files = names.filter((name) => name.toLowerCase().endsWith('.md'));
    if (files.length === 0) return `No memories found in memory://${rel}`;
    return [`# Memory listing: memory://${rel}`, '', 'Files:', ...files.map((name) => `  - memory://${rel ? `${rel}/` : ''}${name.slice(0, -3)}`)].join('\n');
  }

  async function guarded<T>(tool: string, work: () => Promise<T>): Promise<CliResult<T>> {
    try {
      return { ok: true, value: await work() };
    } catch (error) {
      if (error instanceof ToolError) return fail('TOOL_ERROR', `${tool} failed: ${error.toolCode}: ${error.message}`, error.toolCode);
      const code = (error as NodeJS.ErrnoException)?.code;
      return fail('IO_ERROR', `${tool} failed on disk${code ? ` (${code})` : ''}: ${(error as Error)?.message ?? String(error)}`);
    }
  }

  return {
    kind: 'files',
    available: true,
    revision: () => writes,
    root,
    memoryDir,
    index,
    async callJson(tool, payload) {
      switch (tool) {
        case 'WriteMemory':
          return serially(() => guarded(tool, () => writeMemory(payload)));
        case 'SequentialThinking':
          return serially(() => guarded(tool, () => sequentialThinking(payload)));
        case 'ReadMemory':
          return guarded(tool, () => readMemory(payload));
        case 'SearchMemories': {
          const result = await guarded(tool, () => searchMemories(payload));
          return result.ok ? result.value : result;
        }
        default:
          return fail('TOOL_ERROR', `${tool} is not provided by the file store`, 'UNKNOWN_TOOL');
      }
    },
    async callText(tool, payload) {
      switch (tool) {
        case 'RecentActivity':
          return guarded(tool, () => recentActivity(payload));
        case 'BuildContext':
          return guarded(tool, () => buildContext(payload));
        case 'ListMemories':
          return guarded(tool, () => listMemories(payload));
        case 'Sync':
          return guarded(tool, async () => {
            const snapshot = await index.refresh({ force: true });
            return `Sync complete\n  Files processed: ${snapshot.entries.size}\n  Concepts: ${snapshot.postings.size}`;
          });
      }
    },
    close: () => index.persist(),
  };
}
