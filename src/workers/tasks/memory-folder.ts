/**
 * The file store's work in the pool: walking the memory folder, reading and
 * indexing files, loading the index cache (the hook thread writes it:
 * core/memory/index-cache.ts), and searching the index. These tasks do file
 * I/O (synchronously: a worker may block); the parsing is the pure stages'.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { MEMORY_INDEX_VERSION } from '../../core/memory/index-cache.js';
import { indexMemoryText, isMemoryIndexEntry, type FileStamp, type MemoryIndexEntry } from '../../core/memory/memory-index.js';
import { memoryFilePath, parseWikiLinkFilter } from '../../core/memory/memory-format.js';
import { searchEntries, type SearchAnswer } from '../../core/memory/memory-queries.js';
import { packStamps, type PackedStamps } from '../../core/memory/file-stamps.js';

/** Input of `scanMemoryFolder`. */
export interface ScanInput {
  /** `$MAENIFOLD_ROOT/memory`. */
  memoryDir: string;
}

/** Output of `scanMemoryFolder`: every markdown file's stamp, packed, the folders walked, and the WikiLink block-list. */
export interface ScanOutput {
  files: PackedStamps;
  /** The folders walked, relative to the memory folder (`''` is the memory folder itself). */
  dirs: string[];
  /** Normalized concepts of `.wikilink-filter.json`. */
  blocked: string[];
}

/** Input of `indexMemoryFiles`. */
export interface IndexFilesInput {
  memoryDir: string;
  uris: string[];
}

/** Output of `indexMemoryFiles`: entries of the files read; URIs that vanished or could not be read. */
export interface IndexFilesOutput {
  entries: MemoryIndexEntry[];
  missing: string[];
}

/** Input of `loadMemoryIndex`. */
export interface LoadIndexInput {
  file: string;
  memoryDir: string;
}

/** Output of `loadMemoryIndex`: the cached entries, or why there are none. */
export type LoadIndexOutput = { state: 'loaded'; entries: MemoryIndexEntry[] } | { state: 'missing' } | { state: 'corrupt'; reason: string };

/** Input of `searchMemoryIndex`. */
export interface SearchIndexInput {
  entries: Pick<MemoryIndexEntry, 'uri' | 'title' | 'concepts' | 'lead' | 'words' | 'mtimeMs'>[];
  query: string;
  pageSize: number;
}

/**
 * Stamps of the markdown files under `dir`, whose URI prefix is `prefix` (`memory://a/`): the prefix is
 * carried down the walk instead of each path being resolved and made relative again, per file.
 */
function walk(dir: string, prefix: string, out: FileStamp[], dirs: string[]): void {
  let names;
  try {
    names = readdirSync(dir, { withFileTypes: true });
  } catch {
    return; // A folder removed while walking.
  }
  dirs.push(prefix.slice('memory://'.length, -1));
  for (const entry of names) {
    if (entry.name.startsWith('.')) continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) walk(full, `${prefix}${entry.name}/`, out, dirs);
    else if (entry.isFile() && entry.name.toLowerCase().endsWith('.md')) {
      try {
        // Removed between listing and stat: no stamp (and no exception to build for it).
        const stat = statSync(full, { throwIfNoEntry: false });
        if (stat) out.push({ uri: `${prefix}${entry.name.slice(0, -'.md'.length)}`, mtimeMs: stat.mtimeMs, size: stat.size });
      } catch {
        // Unreadable: no stamp.
      }
    }
  }
}

/**
 * The concepts of `.wikilink-filter.json`; an unreadable filter blocks nothing (as in maenifold).
 *
 * @param memoryDir - the memory folder.
 */
export function readWikiLinkFilter(memoryDir: string): Map<string, string> {
  let text: string;
  try {
    text = readFileSync(join(memoryDir, '.wikilink-filter.json'), 'utf8');
  } catch {
    return new Map();
  }
  return parseWikiLinkFilter(text);
}

/** Task `scanMemoryFolder`. */
export function scanMemoryFolder(input: ScanInput): ScanOutput {
  const files: FileStamp[] = [];
  const dirs: string[] = [];
  walk(input.memoryDir, 'memory://', files, dirs);
  return { files: packStamps(files), dirs, blocked: [...readWikiLinkFilter(input.memoryDir).keys()] };
}

/** Task `indexMemoryFiles`: reads and indexes the given files, stamped as read. */
export function indexMemoryFiles(input: IndexFilesInput): IndexFilesOutput {
  const entries: MemoryIndexEntry[] = [];
  const missing: string[] = [];
  for (const uri of input.uris) {
    // The URIs come from the scan, so they stay inside the folder.
    const path = memoryFilePath(input.memoryDir, uri);
    try {
      // Stat before reading: a write in between shows as a newer mtime next scan, never as a stale entry trusted.
      const stat = statSync(path);
      entries.push(indexMemoryText({ uri, mtimeMs: stat.mtimeMs, size: stat.size }, readFileSync(path, 'utf8')));
    } catch {
      missing.push(uri);
    }
  }
  return { entries, missing };
}

/** Task `loadMemoryIndex`: the cache, validated (version, folder, every entry's shape). */
export function loadMemoryIndex(input: LoadIndexInput): LoadIndexOutput {
  let text: string;
  try {
    text = readFileSync(input.file, 'utf8');
  } catch {
    return { state: 'missing' };
  }
  let parsed: { version?: unknown; memoryDir?: unknown; entries?: unknown };
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch (error) {
    return { state: 'corrupt', reason: `not JSON (${(error as Error).message})` };
  }
  if (typeof parsed !== 'object' || parsed === null) return { state: 'corrupt', reason: 'not an object' };
  if (parsed.version !== MEMORY_INDEX_VERSION) return { state: 'corrupt', reason: `version ${JSON.stringify(parsed.version)}, expected ${MEMORY_INDEX_VERSION}` };
  if (parsed.memoryDir !== input.memoryDir) return { state: 'corrupt', reason: 'built for another memory folder' };
  if (!Array.isArray(parsed.entries)) return { state: 'corrupt', reason: 'no entry list' };
  const bad = parsed.entries.findIndex((entry) => !isMemoryIndexEntry(entry));
  if (bad !== -1) return { state: 'corrupt', reason: `entry ${bad} has the wrong shape` };
  return { state: 'loaded', entries: parsed.entries as MemoryIndexEntry[] };
}


/** Task `searchMemoryIndex`. */
export function searchMemoryIndex(input: SearchIndexInput): SearchAnswer {
  return searchEntries(input.entries, input.query, input.pageSize);
}
