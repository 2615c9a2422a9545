/**
 * The built-in memory store: the files maenifold itself writes, under
 * `$MAENIFOLD_ROOT/memory` (frontmatter, slugs, the H1 rule, SequentialThinking
 * session files), with maenifold's validation, written atomically, so
 * `maenifold --tool Sync` can adopt the folder unchanged. Reads answer from
 * the folder's index (folder-index.ts) in the shapes maenifold prints. As in
 * maenifold, a note whose title has the same slug as an existing file
 * replaces it.
 */
import { createHash, randomInt } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { formatFrontmatter, memoryConcepts, parseMemoryFile, sanitizeTitle, slugify } from '../workers/stages/memory-markdown.js';
import { buildContextText, recentActivityText, relatedConcepts, type ActivityQuery, type ConceptFile } from '../workers/stages/memory-queries.js';
import { normalizeMemoryConcept } from '../workers/stages/memory-markdown.js';
import type { CliError, CliResult, MemoryStore } from './maenifold-client.js';
import { createFolderIndex, type FolderIndex } from './folder-index.js';
import type { TaskRunner } from './task-runner.js';
import type { Logger } from './logger.js';
import { writeFileAtomically } from './atomic-file.js';

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
const SESSION_ID = /^session-(\d+)(?:-(\d+))?$/;

class ToolError extends Error {
  constructor(
    readonly toolCode: string,
    message: string,
  ) {
    super(message);
  }
}

function fail(code: CliError['code'], message: string, toolCode?: string): { ok: false; error: CliError } {
  return { ok: false, error: toolCode ? { code, message, toolCode } : { code, message } };
}

function text(payload: Record<string, unknown>, key: string, required = false): string | undefined {
  const value = payload[key];
  if (value === undefined || value === null) {
    if (required) throw new ToolError('INVALID_ARGUMENT', `Missing required parameter '${key}'`);
    return undefined;
  }
  if (typeof value !== 'string') throw new ToolError('INVALID_ARGUMENT', `Parameter '${key}' must be a string`);
  return value;
}

function integer(payload: Record<string, unknown>, key: string, fallback: number): number {
  const value = payload[key];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value)) throw new ToolError('INVALID_ARGUMENT', `Parameter '${key}' must be an integer`);
  return value;
}

function validateRelativePath(value: string, what: string): string {
  const normalized = value.replace(/\\/g, '/');
  if (normalized.startsWith('/') || /^[A-Za-z]:/.test(normalized)) {
    throw new ToolError('PATH_VALIDATION_ERROR', `Invalid ${what} - Absolute paths are not allowed. Use relative paths only.`);
  }
  if (normalized.split('/').some((segment) => segment === '..' || segment === '.')) {
    throw new ToolError('PATH_VALIDATION_ERROR', `Invalid ${what} - Path traversal components ('.' and '..') are not allowed.`);
  }
  return normalized.replace(/^\/+|\/+$/g, '');
}

/** .NET TimeSpan text (`d`, `hh:mm[:ss]`, `d.hh:mm:ss`) in ms, or undefined. */
function parseTimeSpan(value: string): number | undefined {
  const m = /^\s*(?:(\d+)|(?:(\d+)\.)?(\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.(\d{1,7}))?)?)\s*$/.exec(value);
  if (!m) return undefined;
  if (m[1] !== undefined) return Number(m[1]) * 86_400_000;
  const [days, hours, minutes, seconds] = [m[2], m[3], m[4], m[5]].map((part) => Number(part ?? 0)) as [number, number, number, number];
  if (hours > 23 || minutes > 59 || seconds > 59) return undefined;
  return (((days * 24 + hours) * 60 + minutes) * 60 + seconds) * 1000 + (m[6] ? Number(`0.${m[6]}`) * 1000 : 0);
}


function appendSection(body: string, heading: string, content: string): string {
  const base = body === '' || body.endsWith('\n') ? body : `${body}\n`;
  return `${base}\n## ${heading}\n\n${content}\n`;
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
  // Writes one at a time: a thought is a read-modify-write of its session file.
  let queue: Promise<unknown> = Promise.resolve();
  let writes = 0;
  const serially = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  };
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

  function sessionUri(sessionId: string): string {
    const date = new Date(Number(SESSION_ID.exec(sessionId)?.[1] ?? 0));
    const pad = (value: number, width = 2): string => String(value).padStart(width, '0');
    return `memory://thinking/sequential/${pad(date.getUTCFullYear(), 4)}/${pad(date.getUTCMonth() + 1)}/${pad(date.getUTCDate())}/${sessionId}`;
  }

  async function exists(path: string): Promise<boolean> {
    try {
      return (await stat(path)).isFile();
    } catch {
      return false;
    }
  }

  async function sequentialThinking(payload: Record<string, unknown>): Promise<unknown> {
    const response = text(payload, 'response');
    const thoughts = text(payload, 'thoughts');
    const nextThoughtNeeded = payload['nextThoughtNeeded'] === true;
    const thoughtNumber = integer(payload, 'thoughtNumber', 0);
    const totalThoughts = integer(payload, 'totalThoughts', 0);
    const sessionArg = text(payload, 'sessionId');
    const cancel = payload['cancel'] === true;
    const conclusion = text(payload, 'conclusion');
    const analysisType = text(payload, 'analysisType');
    const author = text(payload, 'agent') ?? agent;
    if (thoughtNumber < 0 || totalThoughts < 0) throw new ToolError('INVALID_ARGUMENT', 'thoughtNumber and totalThoughts must be >= 0');
    if (!cancel && memoryConcepts(`${response ?? ''}\n\n${thoughts ?? ''}`).length === 0) {
      throw new ToolError('WIKILINK_REQUIRED', 'Must include [[concepts]] (WikiLinks outside code) in response or thoughts.');
    }
    if (sessionArg !== undefined && !SESSION_ID.test(sessionArg)) {
      throw new ToolError('INVALID_SESSION_ID', 'Invalid sessionId format. Use maenifold-generated values (session-{unix-milliseconds}-{digits}) or omit sessionId to start a new session.');
    }
    const present = sessionArg !== undefined && (await exists(pathOf(sessionUri(sessionArg))));
    if (sessionArg === undefined) {
      if (thoughtNumber !== 0) throw new ToolError('SESSION_MISSING', 'No sessionId given for a continuing thought. Start with thoughtNumber=0 and no sessionId.');
    } else if (thoughtNumber === 0 && present) {
      throw new ToolError('SESSION_EXISTS', `Session ${sessionArg} exists. Continue it with thoughtNumber > 0, or omit sessionId to start a new one.`);
    } else if (thoughtNumber === 0) {
      throw new ToolError('SESSION_NOT_FOUND', `Session ${sessionArg} not found. To start a new session, don't provide sessionId.`);
    } else if (!present) {
      throw new ToolError('SESSION_MISSING', `Session ${sessionArg} missing. Start with thoughtNumber=0.`);
    }
    const completing = !nextThoughtNeeded && !cancel;
    if (completing && (conclusion === undefined || conclusion.trim() === '')) {
      throw new ToolError('CONCLUSION_REQUIRED', 'Conclusion required when completing session. Must synthesize findings with [[concepts]].');
    }
    if (completing && memoryConcepts(conclusion ?? '').length === 0) {
      throw new ToolError('CONCLUSION_WIKILINK_REQUIRED', 'Conclusion must include [[concepts]] for knowledge graph integration.');
    }
    let sessionId = sessionArg;
    let frontmatter: Record<string, string | number | boolean | string[] | undefined>;
    let body: string;
    if (sessionId === undefined) {
      sessionId = `session-${now()}-${String(randomInt(0, 100_000)).padStart(5, '0')}`;
      frontmatter = { title: `Sequential Thinking Session ${sessionId}`, permalink: sessionId, type: 'sequential', status: 'active', created: iso(), analysisType };
      body = '# Sequential Thinking Session\n';
    } else {
      ({ frontmatter, body } = parseMemoryFile(await readFile(pathOf(sessionUri(sessionId)), 'utf8')));
    }
    const stamp = iso().slice(0, 19).replace('T', ' ');
    if (!cancel && response !== undefined) {
      body = appendSection(body, `Thought ${thoughtNumber}/${totalThoughts} [${author}]`, `${response}\n${thoughts ? `\n*Thoughts: ${thoughts}*\n` : ''}\n*${stamp}*`);
    }
    let status: string;
    if (cancel) {
      status = 'cancelled';
      frontmatter = { ...frontmatter, status, cancelled: iso(), thoughtCount: thoughtNumber };
    } else if (completing) {
      body = appendSection(body, 'Conclusion', conclusion ?? '');
      status = 'completed';
      frontmatter = { ...frontmatter, status, completed: iso(), thoughtCount: thoughtNumber };
    } else {
      status = 'active';
      frontmatter = { ...frontmatter, status };
    }
    await writeFileAtomically(pathOf(sessionUri(sessionId)), formatFrontmatter(frontmatter) + body);
    writes += 1;
    index.invalidate();
    let message = thoughtNumber === 0 ? `Created session: ${sessionId}` : `Added thought ${thoughtNumber} to session: ${sessionId}`;
    if (cancel) message += '\n\n❌ Thinking cancelled';
    else if (completing) message += '\n\n✅ Thinking complete';
    else message += `\n\n💭 Continue with thought ${thoughtNumber + 1}/${totalThoughts}`;
    return { sessionId, thoughtNumber, totalThoughts, status, nextThoughtNeeded, message };
  }

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
