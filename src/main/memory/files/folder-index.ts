/**
 * The index of a memory folder, held on the hook thread and kept fresh
 * incrementally: a refresh re-reads the files the folder watch saw change
 * (`folder-watch.ts`), or, when the watch cannot vouch for the events, walks
 * the folder in the pool (stamps only) and re-reads the files whose mtime or
 * size changed; reading and indexing run in batches across the workers. The index is cached on disk in the state dir;
 * the cache is validated when loaded (version, folder, shape) and every
 * cached entry is checked against the file's stamp, so a stale or damaged
 * cache is never trusted: it is rebuilt, and that is logged once.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { MemoryIndexEntry } from '../../../workers/protocol.js';
import type { TaskRunner } from '../../pool/task-runner.js';
import { errorText, type Logger } from '../../shared/logger.js';
import { createIndexTables, type IndexSnapshot } from './index-tables.js';
import { forEachStamp } from '../../../core/memory/file-stamps.js';
import { createFolderWatch, watchEventsAreReliable, type FolderWatchSettings } from './folder-watch.js';

export type { IndexSnapshot } from './index-tables.js';

/** What one refresh did. */
export interface RefreshReport {
  /** Files read and indexed. */
  indexed: number;
  removed: number;
  total: number;
  /** How the changes were found: a walk of the folder, or the folder watch's events. */
  found: 'walk' | 'events';
  /** Whether the cache was loaded, missing, or rejected as corrupt (first refresh only). */
  cache?: 'loaded' | 'missing' | 'corrupt';
}

/** A folder's index. */
export interface FolderIndex {
  /** Where the cache lives. */
  readonly cacheFile: string;
  /** Brings the index up to date (concurrent calls share one refresh); never rejects. */
  refresh(options?: { force?: boolean }): Promise<IndexSnapshot>;
  /** Marks the index stale: the next read refreshes. */
  invalidate(): void;
  /** The last refresh's report. */
  lastReport(): RefreshReport | null;
  /** Writes the cache if the index changed since it was last written. */
  persist(): Promise<void>;
  /** Stops watching the folder (reads still work, by walking it). */
  close(): void;
}

/** Settings of {@link createFolderIndex}. */
export interface FolderIndexSettings {
  memoryDir: string;
  stateDir: string;
  runner: TaskRunner;
  logger: Logger;
  /** Files per indexing task. @default 250 */
  batchSize?: number;
  /** A read within this long of the last refresh reuses it unless something was written. @default 2000 */
  freshForMs?: number;
  /** Delay before the cache is written after a change. @default 2000; 0 writes only on `persist()`. */
  persistDelayMs?: number;
  /** Follow the folder watch's events between walks. @default true where {@link watchEventsAreReliable}, else false */
  watch?: boolean | Omit<FolderWatchSettings, 'memoryDir'>;
}

/**
 * The cache file of a memory folder: one per folder, named by a hash of its path.
 *
 * @param stateDir - the plugin's state folder.
 * @param memoryDir - the memory folder.
 */
export function indexCacheFile(stateDir: string, memoryDir: string): string {
  return join(stateDir, 'memory-index', `${createHash('sha256').update(memoryDir).digest('hex').slice(0, 16)}.json`);
}

/**
 * @param settings - see {@link FolderIndexSettings}.
 */
export function createFolderIndex(settings: FolderIndexSettings): FolderIndex {
  const { memoryDir, runner, logger } = settings;
  const batchSize = settings.batchSize ?? 250;
  const freshForMs = settings.freshForMs ?? 2_000;
  const persistDelayMs = settings.persistDelayMs ?? 2_000;
  const cacheFile = indexCacheFile(settings.stateDir, memoryDir);
  const tables = createIndexTables();
  const { entries } = tables;
  let blocked = new Set<string>();
  let loaded = false;
  let stale = true;
  let refreshedAt = 0;
  let changedSinceSave = false;
  let inFlight: Promise<IndexSnapshot> | null = null;
  let report: RefreshReport | null = null;
  let saveTimer: NodeJS.Timeout | null = null;
  let saving: Promise<void> = Promise.resolve();
  const watchSettings = settings.watch ?? watchEventsAreReliable();
  const watch = watchSettings === false ? null : createFolderWatch({ memoryDir, ...(watchSettings === true ? {} : watchSettings) });
  const snapshot = (): IndexSnapshot => tables.snapshot(blocked);
  const put = tables.put;
  const drop = tables.drop;

  async function loadCache(): Promise<RefreshReport['cache']> {
    const result = await runner.run('loadMemoryIndex', { file: cacheFile, memoryDir });
    if (!result.ok) {
      logger.warn(`memory index: could not load the cache (${result.error.code}: ${result.error.message}); rebuilding it`);
      return 'corrupt';
    }
    if (result.value.state === 'corrupt') {
      logger.warn(`memory index: cache ${cacheFile} rejected (${result.value.reason}); rebuilding it`);
      return 'corrupt';
    }
    if (result.value.state === 'loaded') for (const entry of result.value.entries) put(entry);
    return result.value.state;
  }

  function schedulePersist(): void {
    if (persistDelayMs <= 0 || saveTimer) return;
    saveTimer = setTimeout(() => {
      saveTimer = null;
      void persist();
    }, persistDelayMs);
    saveTimer.unref?.();
  }

  /** The URIs a walk finds changed, with removed files dropped; null when the walk failed. */
  async function walkForChanges(next: RefreshReport): Promise<string[] | null> {
    const scan = await runner.run('scanMemoryFolder', { memoryDir });
    if (!scan.ok) {
      logger.warn(`memory index: could not walk ${memoryDir} (${scan.error.code}: ${scan.error.message}); answering from the last index`);
      return null;
    }
    watch?.track(scan.value.dirs);
    blocked = new Set(scan.value.blocked);
    const seen = new Set<string>();
    const changed: string[] = [];
    forEachStamp(scan.value.files, (uri, mtimeMs, size) => {
      seen.add(uri);
      const known = entries.get(uri);
      if (!known || known.mtimeMs !== mtimeMs || known.size !== size) changed.push(uri);
    });
    for (const uri of [...entries.keys()]) {
      if (!seen.has(uri)) {
        drop(uri);
        next.removed += 1;
      }
    }
    return changed;
  }

  async function update(): Promise<IndexSnapshot> {
    const next: RefreshReport = { indexed: 0, removed: 0, total: 0, found: 'walk' };
    if (!loaded) {
      loaded = true;
      next.cache = await loadCache();
    }
    stale = false;
    const plan = watch ? await watch.plan() : null;
    let changed: string[] | null;
    if (plan?.kind === 'changes') {
      next.found = 'events';
      changed = plan.uris;
    } else {
      if (plan && report) logger.debug(`memory index: walking ${memoryDir} (${plan.reason})`);
      changed = await walkForChanges(next);
    }
    if (changed === null) {
      stale = true;
      return snapshot();
    }
    const batches: string[][] = [];
    for (let start = 0; start < changed.length; start += batchSize) batches.push(changed.slice(start, start + batchSize));
    const results = await Promise.all(batches.map((uris) => runner.run('indexMemoryFiles', { memoryDir, uris })));
    for (const [index, result] of results.entries()) {
      if (!result.ok) {
        // Those files keep their old entries (if any) and are read again next time.
        logger.warn(`memory index: ${batches[index]?.length ?? 0} files not indexed (${result.error.code}: ${result.error.message})`);
        stale = true;
        continue;
      }
      for (const entry of result.value.entries) put(entry);
      for (const uri of result.value.missing) {
        if (entries.has(uri)) next.removed += 1;
        drop(uri);
      }
      next.indexed += result.value.entries.length;
    }
    next.total = entries.size;
    if (next.indexed > 0 || next.removed > 0 || next.cache === 'corrupt') {
      changedSinceSave = true;
      schedulePersist();
    }
    refreshedAt = Date.now();
    report = next;
    return snapshot();
  }

  function refresh(options: { force?: boolean } = {}): Promise<IndexSnapshot> {
    if (inFlight) return inFlight;
    if (!options.force && !stale && Date.now() - refreshedAt < freshForMs) return Promise.resolve(snapshot());
    const running = update()
      .catch((error: unknown) => {
        logger.warn(`memory index: refresh failed (${errorText(error)}); answering from the last index`);
        stale = true;
        return snapshot();
      })
      .finally(() => {
        inFlight = null;
      });
    inFlight = running;
    return running;
  }

  function persist(): Promise<void> {
    if (saveTimer) {
      clearTimeout(saveTimer);
      saveTimer = null;
    }
    saving = saving.then(async () => {
      if (!changedSinceSave) return;
      changedSinceSave = false;
      const saved = await runner.run('saveMemoryIndex', { file: cacheFile, memoryDir, entries: [...entries.values()] });
      if (!saved.ok) {
        changedSinceSave = true;
        logger.warn(`memory index: could not write the cache (${saved.error.code}: ${saved.error.message}); it is rebuilt next start`);
      }
    });
    return saving;
  }

  return {
    cacheFile,
    refresh,
    invalidate: () => {
      stale = true;
    },
    lastReport: () => report,
    persist,
    close: () => watch?.close(),
  };
}
