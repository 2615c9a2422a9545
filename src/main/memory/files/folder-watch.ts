/**
 * What changed in a memory folder since the last full walk, told by the
 * operating system: one `fs.watch` per folder (Linux has no recursive watch
 * of its own), so a refresh re-reads the files named in change events
 * instead of stat-ing all of them: a walk's cost grows with the folder, a
 * refresh that follows events with what changed (docs/benchmarks.md).
 *
 * Events arrive asynchronously, so before trusting them a refresh creates a
 * marker file in the root folder and waits for its own event: the events of
 * one watch queue arrive in order, so every change made before the marker
 * has then been seen (the "cookie" of file watchers such as Watchman).
 *
 * A walk is asked for instead whenever the events might not tell everything:
 * before the watches are in place, after a folder appeared, vanished or was
 * renamed, after a watch failed, and once every `rescanAfterMs` in any case
 * (the queue can overflow silently). When the marker's event does not arrive
 * in time, the file system does not report changes (some network and FUSE
 * mounts): the watch gives up and every refresh walks, as without it. Folders the walk skips (names starting with a dot) are not
 * watched, and their events are ignored, except `.wikilink-filter.json`.
 *
 * Only where the runtime's watcher reports every change in order
 * ({@link watchEventsAreReliable}): Node's does; Bun's, OpenCode's own
 * runtime, does not, and there every refresh walks.
 */
import { watch as fsWatch, type FSWatcher } from 'node:fs';
import { unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** What the next refresh must do. */
export type WatchPlan = { kind: 'changes'; uris: string[] } | { kind: 'walk'; reason: string };

/** The watches of one memory folder. */
export interface FolderWatch {
  /** What changed since the walk that {@link track} was given, or why a walk is needed. Never rejects. */
  plan(): Promise<WatchPlan>;
  /**
   * Watches exactly `dirs`, the folders of the walk the last plan asked for. A folder watched only
   * now may have changed unseen while that walk ran, so the next plan asks for another walk until
   * the set of folders is stable.
   */
  track(dirs: readonly string[]): void;
  /** Stops watching. */
  close(): void;
}

/** Settings of {@link createFolderWatch}. */
export interface FolderWatchSettings {
  memoryDir: string;
  /** A walk at least this often, whatever the events say. @default 300000 */
  rescanAfterMs?: number;
  /** How long to wait for the marker's own event. @default 500 */
  markerTimeoutMs?: number;
  /** More folders than this are not watched (every refresh walks). @default 1000 */
  maxFolders?: number;
  /** The watch function (tests make it fail). */
  watch?: typeof fsWatch;
  now?: () => number;
}

/**
 * Whether this runtime's `fs.watch` reports every change, in order across
 * folders, as the marker needs. Bun 1.3's does not, on Linux: a second
 * change to a file within about a millisecond of the first may produce no
 * event; an atomic replace (a temporary file renamed over the
 * note, as careful writers do) reported only the temporary name; and a change
 * in a subfolder was now and then delivered after the marker written later
 * in the root folder. Each of these leaves the index stale until the next
 * periodic walk, so under Bun the index walks on every refresh.
 *
 * @param runtime - the global object to inspect (tests pass their own).
 */
export function watchEventsAreReliable(runtime: object = globalThis): boolean {
  return !('Bun' in runtime);
}

const MARKER_PREFIX = '.opencode-maenifold-sync-';
const FILTER_FILE = '.wikilink-filter.json';

/**
 * @param settings - see {@link FolderWatchSettings}.
 */
export function createFolderWatch(settings: FolderWatchSettings): FolderWatch {
  const { memoryDir } = settings;
  const rescanAfterMs = settings.rescanAfterMs ?? 300_000;
  const markerTimeoutMs = settings.markerTimeoutMs ?? 500;
  const maxFolders = settings.maxFolders ?? 1_000;
  const watchFolder = settings.watch ?? fsWatch;
  const now = settings.now ?? Date.now;
  const watchers = new Map<string, FSWatcher>();
  let dirty = new Set<string>();
  /** Why the next plan must walk; null when the events can be trusted. */
  let walkReason: string | null = 'no walk yet';
  let lastWalkAt = 0;
  /** A walk was asked for and {@link FolderWatch.track} has not been told it finished. */
  let walking = false;
  let closed = false;
  /** Why events are never trusted again (a folder whose file system does not report changes). */
  let disabled: string | null = null;
  let markers = 0;
  const waiting = new Map<string, () => void>();

  function closeAll(): void {
    for (const watcher of watchers.values()) {
      try {
        watcher.close();
      } catch {
        // Already closed.
      }
    }
    watchers.clear();
  }

  function fail(reason: string): void {
    walkReason ??= reason;
    closeAll();
  }

  function onEvent(dir: string, name: string | Buffer | null): void {
    if (name === null) {
      walkReason ??= `an event without a name in ${dir || 'the root folder'}`;
      return;
    }
    const file = String(name);
    const marker = waiting.get(file);
    if (dir === '' && marker) return marker();
    if (file === FILTER_FILE && dir === '') walkReason ??= 'the WikiLink filter changed';
    else if (file.startsWith('.')) return;
    else if (file.toLowerCase().endsWith('.md')) dirty.add(`memory://${dir === '' ? '' : `${dir}/`}${file.slice(0, -'.md'.length)}`);
    // Anything else may be a folder created, removed or renamed.
    else walkReason ??= `${join(dir, file)} changed`;
  }

  function watchOne(dir: string): boolean {
    try {
      const watcher = watchFolder(join(memoryDir, dir), { persistent: false }, (_event, name) => onEvent(dir, name));
      watcher.on('error', (error: Error) => fail(`watching ${dir || 'the root folder'} failed (${error.message})`));
      watchers.set(dir, watcher);
      return true;
    } catch (error) {
      fail(`could not watch ${dir || 'the root folder'} (${(error as Error).message})`);
      return false;
    }
  }

  /** Null once the marker's own event arrived; otherwise why the events cannot be trusted. */
  async function sync(): Promise<string | null> {
    markers += 1;
    const name = `${MARKER_PREFIX}${process.pid}-${markers}`;
    const path = join(memoryDir, name);
    let timer: NodeJS.Timeout | undefined;
    const seen = new Promise<boolean>((resolve) => {
      waiting.set(name, () => resolve(true));
      timer = setTimeout(() => resolve(false), markerTimeoutMs);
      timer.unref?.();
    });
    try {
      await writeFile(path, '', { flag: 'wx' });
    } catch (error) {
      waiting.delete(name);
      clearTimeout(timer);
      return `the marker file could not be created (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
    }
    const arrived = await seen;
    waiting.delete(name);
    clearTimeout(timer);
    await unlink(path).catch(() => undefined);
    // A file system that does not report changes (some network and FUSE mounts) stays silent for good.
    return arrived ? null : `the folder watch did not confirm its changes within ${markerTimeoutMs} ms`;
  }

  return {
    async plan() {
      if (disabled !== null) return { kind: 'walk', reason: disabled };
      if (walking) walkReason ??= 'the last walk did not finish';
      if (walkReason === null && now() - lastWalkAt >= rescanAfterMs) walkReason = 'the periodic walk is due';
      const unconfirmed = walkReason === null ? await sync() : null;
      if (unconfirmed !== null) {
        disabled = `${unconfirmed}; walking on every refresh`;
        closeAll();
        return { kind: 'walk', reason: disabled };
      }
      if (walkReason !== null) {
        // The walk sees every change made before it starts; what happens from now on is told again.
        const reason = walkReason;
        walkReason = null;
        walking = true;
        lastWalkAt = now();
        dirty = new Set();
        return { kind: 'walk', reason };
      }
      const uris = [...dirty];
      dirty = new Set();
      return { kind: 'changes', uris };
    },
    track(dirs) {
      if (closed || disabled !== null) return;
      walking = false;
      if (dirs.length > maxFolders) {
        closeAll();
        walkReason ??= `${dirs.length} folders are more than the ${maxFolders} watched`;
        return;
      }
      const wanted = new Set(dirs);
      for (const [dir, watcher] of watchers) {
        if (wanted.has(dir)) continue;
        watcher.close();
        watchers.delete(dir);
      }
      let added = false;
      for (const dir of dirs) {
        if (watchers.has(dir)) continue;
        if (!watchOne(dir)) return;
        added = true;
      }
      if (added) walkReason ??= 'new folders are watched from now on';
    },
    close() {
      closed = true;
      walkReason = 'closed';
      closeAll();
    },
  };
}
