/**
 * The built-in memory store: the files maenifold itself writes, under
 * `$MAENIFOLD_ROOT/memory` (frontmatter, slugs, the H1 rule, SequentialThinking
 * session files), with maenifold's validation, written atomically, so
 * `maenifold --tool Sync` can adopt the folder unchanged. It implements the
 * memory port: reads answer as data from the folder's index
 * (file-store-reads.ts). As in maenifold, a note whose title has the same
 * slug as an existing file replaces it. SequentialThinking is in
 * file-store-thinking.ts.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { memoryConcepts } from '../../../core/memory/memory-markdown.js';
import { formatFrontmatter, MAX_TITLE_CHARS, memoryFilePath, noteLocation, parseWikiLinkFilter } from '../../../core/memory/memory-format.js';
import type { NoteInput, WrittenNote } from '../../../core/memory/memory-answers.js';
import type { MemoryPort, MemoryResult } from '../memory-port.js';
import { createFolderIndex, type FolderIndex, type FolderIndexSettings } from './folder-index.js';
import type { TaskRunner } from '../../pool/task-runner.js';
import { errorText, type Logger } from '../../shared/logger.js';
import { writeFileAtomically } from '../../../io/atomic-file.js';
import { fail, ToolError, validateRelativePath } from './file-store-args.js';
import { createSequentialThinking } from './file-store-thinking.js';
import { createFileStoreReads, PoolError } from './file-store-reads.js';
import pLimit from 'p-limit';

/** The file store: a {@link MemoryPort} plus what the preview and shutdown need. */
export interface FileStore extends MemoryPort {
  readonly kind: 'files';
  /** `$MAENIFOLD_ROOT`. */
  readonly root: string;
  readonly memoryDir: string;
  readonly index: FolderIndex;
  /** Stops watching the folder and writes the index cache if it changed. */
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
  index?: Pick<FolderIndexSettings, 'freshForMs' | 'persistDelayMs' | 'batchSize' | 'watch' | 'maxNoteBytes' | 'answerWithinMs'>;
}

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
  const pathOf = (uri: string): string => memoryFilePath(memoryDir, uri);

  async function blockedConcepts(): Promise<Map<string, string>> {
    try {
      return parseWikiLinkFilter(await readFile(join(memoryDir, '.wikilink-filter.json'), 'utf8'));
    } catch {
      return new Map(); // As maenifold: an unreadable filter blocks nothing.
    }
  }

  async function writeNote(note: NoteInput): Promise<WrittenNote> {
    const { title: rawTitle, content } = note;
    if (rawTitle.length >= MAX_TITLE_CHARS) {
      throw new ToolError('PATH_TOO_LONG', `Title is ${rawTitle.length} characters; titles must be shorter than ${MAX_TITLE_CHARS} characters.`);
    }
    const concepts = memoryConcepts(content);
    if (concepts.length === 0) {
      throw new ToolError('VALIDATION_ERROR', 'Content must contain at least one [[WikiLink]] concept outside code (fenced, indented or inline code is ignored) to connect to the knowledge graph.');
    }
    const filter = await blockedConcepts();
    const blocked = concepts.filter((concept) => filter.has(concept));
    if (blocked.length > 0) {
      throw new ToolError('FILTERED_WIKILINKS', `Content contains filtered WikiLinks: ${blocked.map((concept) => `[[${concept}]] (${filter.get(concept)})`).join(', ')}. Remove or replace them.`);
    }
    const folder = note.folder ? validateRelativePath(note.folder, 'folder path') : '';
    const { title, slug, uri } = noteLocation(folder, rawTitle);
    const stamp = iso();
    const body = content.trimStart().startsWith('# ') ? content : `# ${title}\n\n${content}`;
    const file = formatFrontmatter({ title, permalink: slug, type: 'memory', status: 'saved', created: stamp, modified: stamp, tags: note.tags ?? [] }) + body;
    await writeFileAtomically(pathOf(uri), file);
    writes += 1;
    index.invalidate();
    return { uri };
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

  const reads = createFileStoreReads({ memoryDir, index, runner: settings.runner, now });

  /** Runs one operation; what it throws becomes a value with maenifold's code. */
  async function guarded<T>(tool: string, work: () => Promise<T>): Promise<MemoryResult<T>> {
    try {
      return { ok: true, value: await work() };
    } catch (error) {
      if (error instanceof ToolError) return fail('TOOL_ERROR', `${tool} failed: ${error.toolCode ? `${error.toolCode}: ` : ''}${error.message}`, error.toolCode);
      if (error instanceof PoolError) return fail('IO_ERROR', error.message);
      const code = (error as NodeJS.ErrnoException)?.code;
      return fail('IO_ERROR', `${tool} failed on disk${code ? ` (${code})` : ''}: ${errorText(error)}`);
    }
  }

  return {
    kind: 'files',
    available: true,
    // A context built from an index still being read is built again once more of it has landed.
    revision: () => writes + index.revision(),
    root,
    memoryDir,
    index,
    writeNote: (note) => serially(() => guarded('WriteMemory', () => writeNote(note))),
    appendThought: (thought) => serially(() => guarded('SequentialThinking', () => sequentialThinking(thought))),
    readNote: (uri) => guarded('ReadMemory', () => reads.readNote(uri)),
    listNotes: (folder) => guarded('ListMemories', () => reads.listNotes(folder)),
    search: (query) => guarded('SearchMemories', () => reads.search(query)),
    recent: (query) => guarded('RecentActivity', () => reads.recent(query)),
    related: (query) => guarded('BuildContext', () => reads.related(query)),
    close: () => {
      index.close();
      return index.persist();
    },
  };
}
