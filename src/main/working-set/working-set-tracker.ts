/**
 * The working set of each session: the paths its tools touched, most recent
 * first, kept across compactions so conditional rules keep applying and the
 * compaction summary can name them. Bounded: sessions past the limit are
 * forgotten least recently used first, and a deleted session at once.
 */
import { filesFromToolInput, normalizeToolPath } from '../../core/extraction/working-set/working-set.js';

/** Paths remembered per session. */
export const MAX_PATHS_PER_SESSION = 500;
/** Sessions remembered. */
export const MAX_TRACKED_SESSIONS = 200;

/** Tools whose `path` argument names a folder they worked in. */
const FOLDER_TOOLS = new Set(['list', 'glob', 'grep']);

/** Per-session working sets. */
export interface WorkingSetTracker {
  /** Records the paths of one tool call. */
  record(sessionID: string, tool: string, args: unknown): void;
  /** Adds paths found elsewhere (a compaction's extraction), older than the recorded ones. */
  merge(sessionID: string, paths: readonly string[]): void;
  /** Most recent first. */
  recent(sessionID: string, limit?: number): string[];
  forget(sessionID: string): void;
  readonly sessions: number;
}

/**
 * @param projectRoot - the worktree, to make paths relative.
 */
export function createWorkingSetTracker(projectRoot: string | null): WorkingSetTracker {
  // Map order is recency: a touched path or session is deleted and set again.
  const sets = new Map<string, Map<string, true>>();

  function setOf(sessionID: string): Map<string, true> {
    let paths = sets.get(sessionID);
    if (paths) sets.delete(sessionID);
    else paths = new Map();
    sets.set(sessionID, paths);
    while (sets.size > MAX_TRACKED_SESSIONS) sets.delete(sets.keys().next().value as string);
    return paths;
  }

  function touch(paths: Map<string, true>, path: string): void {
    paths.delete(path);
    paths.set(path, true);
    while (paths.size > MAX_PATHS_PER_SESSION) paths.delete(paths.keys().next().value as string);
  }

  return {
    record(sessionID, tool, args) {
      if (typeof sessionID !== 'string' || typeof tool !== 'string' || typeof args !== 'object' || args === null) return;
      const input = args as Record<string, unknown>;
      const found = filesFromToolInput(tool, input, projectRoot);
      if (FOLDER_TOOLS.has(tool) && typeof input['path'] === 'string') {
        const folder = normalizeToolPath(input['path'], projectRoot);
        if (folder) found.push(folder);
      }
      if (found.length === 0) return;
      const paths = setOf(sessionID);
      for (const path of found) touch(paths, path);
    },
    merge(sessionID, extra) {
      if (extra.length === 0) return;
      const paths = setOf(sessionID);
      const known = [...paths.keys()];
      paths.clear();
      // Older than anything recorded live: they go first in recency order.
      for (const path of [...extra].reverse()) if (!known.includes(path)) paths.set(path, true);
      for (const path of known) paths.set(path, true);
      while (paths.size > MAX_PATHS_PER_SESSION) paths.delete(paths.keys().next().value as string);
    },
    recent(sessionID, limit = MAX_PATHS_PER_SESSION) {
      const paths = sets.get(sessionID);
      return paths ? [...paths.keys()].reverse().slice(0, limit) : [];
    },
    forget(sessionID) {
      sets.delete(sessionID);
    },
    get sessions() {
      return sets.size;
    },
  };
}
