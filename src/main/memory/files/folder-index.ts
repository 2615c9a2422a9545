/**
 * The index of a memory folder, held on the hook thread and kept fresh
 * incrementally: a refresh re-reads the files the folder watch saw change
 * (`folder-watch.ts`), or, when the watch cannot vouch for the events, walks
 * the folder in the pool (stamps only) and re-reads the files whose mtime or
 * size changed; reading and indexing run in batches across the workers. The index is cached on disk in the state dir;
 * the cache is validated when loaded (version, folder, shape) and every
 * cached entry is checked against the file's stamp, so a stale or damaged
 * cache is never trusted: it is rebuilt, and that is logged once.
 *
 * A refresh never starts over: each batch's entries are kept as it lands
 * (index-batches.ts), and a read waits for a refresh at most
 * `answerWithinMs`, then answers from what is indexed so far while the
 * refresh goes on; {@link FolderIndex.revision} then grows as more lands, so
 * an answer built from a partial index is built again. A note larger than
 * `maxNoteBytes`, or one that is not a regular file (a FIFO, a socket, a
 * symbolic link) or that fails to be read alone, is left out with one log
 * line until it changes; the walk never follows a symbolic link.
 */
import { createHash } from 'node:crypto';
import { lstat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { join } from 'node:path';
import type { TaskRunner } from '../../pool/task-runner.js';
import { errorText, type Logger } from '../../shared/logger.js';
import { createIndexTables, type IndexSnapshot } from './index-tables.js';
import { forEachStamp } from '../../../core/memory/file-stamps.js';
import { memoryFilePath } from '../../../core/memory/memory-format.js';
import { createFolderWatch, watchEventsAreReliable, type FolderWatchSettings } from './folder-watch.js';
import { indexInBatches } from './index-batches.js';
import { withDeadline } from '../../shared/deadline.js';
import { writeFileAtomically } from '../../../io/atomic-file.js';
import { indexCachePieces } from '../../../core/memory/index-cache.js';

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
  /**
   * Brings the index up to date (concurrent calls share one refresh); never rejects. Waits for a
   * refresh at most `answerWithinMs` (not at all once one refresh has outrun a read), then resolves
   * with the index as it stands while the refresh goes on.
   */
  refresh(options?: { force?: boolean }): Promise<IndexSnapshot>;
  /**
   * Grows each time files land that a read answered without (it stopped waiting for the refresh
   * reading them): an answer built before is then incomplete.
   */
  revision(): number;
  /** Resolves when no refresh is running (tests, shutdown). */
  whenIdle(): Promise<void>;
  /** Notes larger than this many bytes are left out. */
  readonly maxNoteBytes: number;
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
  /** Notes larger than this are left out (one log line): a 200 MB note would hold a worker, or the hook thread, for seconds. @default 8 MiB */
  maxNoteBytes?: number;
  /** How long a read waits for a refresh before answering from what is indexed so far. @default 2000 */
  answerWithinMs?: number;
  /** Indexing tasks at a time. @default 2 */
  concurrentBatches?: number;
}

/** The default of {@link FolderIndexSettings.maxNoteBytes}. */
export const DEFAULT_MAX_NOTE_BYTES = 8 * 1024 * 1024;

/** More changed files than this from the watch's events are found by a walk instead of a check of each. */
const MAX_EVENT_CHECKS = 2_000;

/** A changed file to read, with its stamp as last seen. */
interface Candidate {
  uri: string;
  mtimeMs: number;
  size: number;
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
  const maxNoteBytes = settings.maxNoteBytes ?? DEFAULT_MAX_NOTE_BYTES;
  const answerWithinMs = settings.answerWithinMs ?? 2_000;
  const concurrentBatches = settings.concurrentBatches ?? 2;
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
  /** Files left out, by URI, with the stamp (or reason) they were left out at: logged once, read again when it changes. */
  const skipped = new Map<string, string>();
  /** Files the pool could not take: read at the next refresh. */
  const deferred = new Set<string>();
  let revision = 0;
  /** A read stopped waiting for the refresh in flight: what lands now makes its answer incomplete. */
  let outrun = false;
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

  /** Leaves a file out until its stamp (or what was wrong with it) changes; logs once. */
  function skip(uri: string, key: string, why: string, next: RefreshReport): void {
    if (entries.has(uri)) {
      // What was indexed of it no longer stands for the file.
      drop(uri);
      next.removed += 1;
    }
    if (skipped.get(uri) === key) return;
    skipped.set(uri, key);
    logger.warn(`memory index: left out ${uri} (${why}); it is read again once it changes`);
  }

  const stampKey = (mtimeMs: number, size: number): string => `${mtimeMs}:${size}`;

  /** The URIs a walk finds changed, with removed files dropped; null when the walk failed. */
  async function walkForChanges(next: RefreshReport): Promise<Candidate[] | null> {
    const scan = await runner.run('scanMemoryFolder', { memoryDir });
    if (!scan.ok) {
      logger.warn(`memory index: could not walk ${memoryDir} (${scan.error.code}: ${scan.error.message}); answering from the last index`);
      return null;
    }
    watch?.track(scan.value.dirs);
    blocked = new Set(scan.value.blocked);
    const seen = new Set<string>();
    const changed: Candidate[] = [];
    forEachStamp(scan.value.files, (uri, mtimeMs, size) => {
      seen.add(uri);
      const known = entries.get(uri);
      if ((!known || known.mtimeMs !== mtimeMs || known.size !== size) && skipped.get(uri) !== stampKey(mtimeMs, size)) changed.push({ uri, mtimeMs, size });
    });
    for (const uri of [...entries.keys()]) {
      if (!seen.has(uri)) {
        drop(uri);
        next.removed += 1;
      }
    }
    for (const uri of [...skipped.keys()]) if (!seen.has(uri)) skipped.delete(uri);
    return changed;
  }

  /**
   * The files the watch's events name, each checked on disk before a worker reads it (a FIFO named
   * like a note would hold a worker until its deadline); removed files dropped. Null when one is a
   * folder named like a note: only a walk sees what it holds.
   */
  async function checkEvents(uris: readonly string[], next: RefreshReport): Promise<Candidate[] | null> {
    type Checked = { uri: string; stat: Stats; code?: undefined } | { uri: string; stat?: undefined; code: string };
    const checked = await Promise.all(
      uris.map(async (uri): Promise<Checked> => {
        try {
          return { uri, stat: await lstat(memoryFilePath(memoryDir, uri)) };
        } catch (error) {
          return { uri, code: (error as NodeJS.ErrnoException)?.code ?? errorText(error) };
        }
      }),
    );
    const changed: Candidate[] = [];
    let folder = false;
    for (const found of checked) {
      const { uri } = found;
      if (found.stat === undefined) {
        if (found.code !== 'ENOENT' && found.code !== 'ENOTDIR') {
          skip(uri, `error:${found.code}`, `could not be checked: ${found.code}`, next);
          continue;
        }
        skipped.delete(uri);
        if (entries.has(uri)) {
          drop(uri);
          next.removed += 1;
        }
        continue;
      }
      const stat = found.stat;
      if (stat.isDirectory()) {
        folder = true;
        continue;
      }
      if (!stat.isFile()) {
        skip(uri, `special:${stat.mtimeMs}`, stat.isSymbolicLink() ? 'a symbolic link, which the index does not follow' : 'not a regular file', next);
        continue;
      }
      const known = entries.get(uri);
      if (known && known.mtimeMs === stat.mtimeMs && known.size === stat.size) continue;
      if (skipped.get(uri) === stampKey(stat.mtimeMs, stat.size)) continue;
      changed.push({ uri, mtimeMs: stat.mtimeMs, size: stat.size });
    }
    return folder ? null : changed;
  }

  /** Reads the candidates in batches, keeping each batch's entries as it lands. */
  async function readCandidates(candidates: readonly Candidate[], next: RefreshReport): Promise<void> {
    const toRead: string[] = [];
    const stampOf = new Map<string, string>();
    for (const { uri, mtimeMs, size } of candidates) {
      if (size > maxNoteBytes) skip(uri, stampKey(mtimeMs, size), `${size} bytes, more than the ${maxNoteBytes} read`, next);
      else {
        toRead.push(uri);
        stampOf.set(uri, stampKey(mtimeMs, size));
      }
    }
    await indexInBatches(toRead, { memoryDir, runner, batchSize, concurrency: concurrentBatches }, {
      landed(read, missing) {
        for (const entry of read) {
          put(entry);
          skipped.delete(entry.uri);
        }
        for (const uri of missing) {
          if (entries.has(uri)) next.removed += 1;
          drop(uri);
        }
        next.indexed += read.length;
        if (read.length > 0 || missing.length > 0) {
          changedSinceSave = true;
          schedulePersist();
          if (outrun) revision += 1;
        }
      },
      failed(uri, why) {
        skip(uri, stampOf.get(uri) ?? 'failed', `could not be read: ${why}`, next);
      },
      deferred(uris, why) {
        logger.warn(`memory index: ${uris.length} files not indexed (${why}); read at the next refresh`);
        for (const uri of uris) deferred.add(uri);
        stale = true;
      },
    });
  }

  async function update(): Promise<IndexSnapshot> {
    const next: RefreshReport = { indexed: 0, removed: 0, total: 0, found: 'walk' };
    if (!loaded) {
      loaded = true;
      next.cache = await loadCache();
    }
    stale = false;
    const plan = watch ? await watch.plan() : null;
    let changed: Candidate[] | null = null;
    const named = plan?.kind === 'changes' ? [...new Set([...plan.uris, ...deferred])] : null;
    deferred.clear();
    if (named && named.length <= MAX_EVENT_CHECKS) {
      next.found = 'events';
      changed = await checkEvents(named, next);
    }
    if (changed === null) {
      next.found = 'walk';
      if (plan && report) logger.debug(`memory index: walking ${memoryDir} (${plan.kind === 'walk' ? plan.reason : 'the events name a folder or too many files'})`);
      changed = await walkForChanges(next);
    }
    if (changed === null) {
      stale = true;
      return snapshot();
    }
    await readCandidates(changed, next);
    next.total = entries.size;
    if (next.removed > 0 || next.cache === 'corrupt') {
      changedSinceSave = true;
      schedulePersist();
    }
    refreshedAt = Date.now();
    report = next;
    return snapshot();
  }

  /** The refresh in flight, waited for at most `answerWithinMs`, and not at all once it outran a read. */
  async function within(running: Promise<IndexSnapshot>): Promise<IndexSnapshot> {
    if (outrun) return snapshot();
    const waited = await withDeadline(running, answerWithinMs);
    if (waited.done) return waited.value;
    if (!outrun) logger.info(`memory index: a refresh of ${memoryDir} takes longer than ${answerWithinMs} ms; answering from the ${entries.size} files indexed so far while it goes on`);
    outrun = true;
    return snapshot();
  }

  function refresh(options: { force?: boolean } = {}): Promise<IndexSnapshot> {
    if (inFlight) return within(inFlight);
    if (!options.force && !stale && Date.now() - refreshedAt < freshForMs) return Promise.resolve(snapshot());
    const running = update()
      .catch((error: unknown) => {
        logger.warn(`memory index: refresh failed (${errorText(error)}); answering from the last index`);
        stale = true;
        return snapshot();
      })
      .finally(() => {
        inFlight = null;
        // What landed after a read stopped waiting is counted; the next refresh starts unread.
        if (outrun) revision += 1;
        outrun = false;
      });
    inFlight = running;
    return within(running);
  }

  function persist(): Promise<void> {
    if (saveTimer) {
      clearTimeout(saveTimer);
      saveTimer = null;
    }
    saving = saving.then(async () => {
      if (!changedSinceSave) return;
      changedSinceSave = false;
      try {
        // Written from here in pieces, the thread handed back between them: a copy of the whole index to a
        // worker held the hook thread about 60 ms at 10,000 files.
        await writeFileAtomically(cacheFile, indexCachePieces(memoryDir, [...entries.values()]), 0o600);
      } catch (error) {
        changedSinceSave = true;
        logger.warn(`memory index: could not write the cache (${errorText(error)}); it is rebuilt next start`);
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
    revision: () => revision,
    whenIdle: async () => {
      while (inFlight) await inFlight;
    },
    maxNoteBytes,
    persist,
    close: () => watch?.close(),
  };
}
