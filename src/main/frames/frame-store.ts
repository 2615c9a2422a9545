/**
 * The frame tree of one project on disk, so frames survive a restart: one
 * JSON file per worktree under the state folder, written atomically
 * (temporary file, fsync, rename). Two OpenCode processes of one project
 * share it: every change is a read-modify-write under a lock shared across
 * processes, and every step has a deadline (a read that never returns fails
 * the call instead of hanging the hook). A missing file is an empty tree; a
 * damaged one is kept aside (`<name>.corrupt-<time>`, one log line) and the
 * tree starts empty; frames without the expected shape are dropped and logged.
 */
import { createHash } from 'node:crypto';
import * as v from 'valibot';
import { basename, dirname, join } from 'node:path';
import { emptyTree, FRAME_OUTCOMES, type Frame, type FrameTree } from './frame-state.js';
import { writeFileAtomically } from '../../io/atomic-file.js';
import { assertHeld, withFileLock, type LockTiming } from '../shared/file-lock.js';
import { keepAside, readStateText } from '../shared/state-file.js';
import type { Logger } from '../shared/logger.js';

/** Reads and changes one project's frames. */
export interface FrameStore {
  /** The tree as on disk (as last read or written when that was under a second ago, or when the disk does not answer). */
  read(): Promise<FrameTree>;
  /** Applies `change` to the tree as it is on disk and writes the result, one change at a time. */
  update<T>(change: (tree: FrameTree) => T): Promise<T>;
  readonly file: string;
}

/** How long a tree read from disk is used as it is. */
const FRESH_MS = 1_000;

/** A frame as the file must hold it; anything else in the file is damage. */
const FRAME = v.looseObject({
  sessionID: v.string(),
  parentID: v.nullable(v.string()),
  goal: v.string(),
  successCriteria: v.string(),
  status: v.picklist(['in_progress', 'completing', 'completed', 'failed', 'blocked']),
  outcome: v.optional(v.picklist(FRAME_OUTCOMES)),
  artifacts: v.array(v.string()),
  createdAt: v.string(),
});

function isFrame(value: unknown): value is Frame {
  return v.is(FRAME, value);
}

/**
 * Where a worktree's frames are kept: named by a hash of its path, so no
 * project name or path can steer the file out of the folder.
 *
 * @param stateDir - the plugin's state folder.
 * @param worktree - the project's worktree.
 */
export function frameFileFor(stateDir: string, worktree: string): string {
  return join(stateDir, 'frames', `${createHash('sha256').update(worktree).digest('hex').slice(0, 24)}.json`);
}

/** Settings of {@link createFrameStore}. */
export interface FrameStoreSettings {
  logger?: Logger;
  /** Lock and step deadlines; a read that never returns fails after `holdMs`. */
  timing?: LockTiming;
}

/**
 * @param file - the tree's file, from {@link frameFileFor}.
 * @param settings - see {@link FrameStoreSettings}.
 */
export function createFrameStore(file: string, settings: FrameStoreSettings = {}): FrameStore {
  let cached: FrameTree | null = null;
  let loadedAt = 0;
  const warned = new Set<string>();
  // A small file on a healthy disk reads in milliseconds; the compacting hook waits at most about a second more for frames.
  const timing = { waitMs: 1_000, holdMs: 1_000, staleMs: 10_000, ...settings.timing };
  // Beside the other locks of the state folder (`<stateDir>/locks`), not among the frame files.
  const lock = join(dirname(dirname(file)), 'locks', `frames-${basename(file, '.json')}.lock`);

  async function load(): Promise<FrameTree> {
    const tree = emptyTree();
    const text = await readStateText(file, timing.holdMs, { what: 'goal-frame state', logger: settings.logger });
    if (text === null) return tree;
    let parsed: { frames?: unknown } | undefined;
    try {
      parsed = JSON.parse(text) as { frames?: unknown };
    } catch {
      parsed = undefined;
    }
    if (typeof parsed?.frames !== 'object' || parsed.frames === null) {
      // Kept aside, never written over: the user may want the frames back.
      if (!(await keepAside(file, 'goal-frame state', settings.logger))) throw new Error(`damaged ${file} could not be kept aside`);
      return tree;
    }
    for (const [id, frame] of Object.entries(parsed.frames)) {
      if (isFrame(frame) && frame.sessionID === id) tree.frames[id] = frame;
      else if (!warned.has(id)) {
        warned.add(id);
        settings.logger?.warn(`state: frame ${JSON.stringify(id.slice(0, 80))} in ${file} is malformed; ignored (dropped at the next write)`);
      }
    }
    return tree;
  }

  // Every step under the lock shared with other processes of the project, each with a deadline.
  const locked = <T>(step: (signal: AbortSignal) => Promise<T>): Promise<T> => withFileLock(lock, step, timing);

  return {
    file,
    async read() {
      if (cached && Date.now() - loadedAt < FRESH_MS) return cached;
      try {
        // Read again: another process of the project may have pushed or popped a frame.
        return await locked(async () => {
          cached = await load();
          loadedAt = Date.now();
          return cached;
        });
      } catch (error) {
        // A disk that does not answer now: the tree as last read, when there is one.
        if (cached) return cached;
        throw error;
      }
    },
    update: (change) =>
      locked(async (signal) => {
        // From disk: another OpenCode process of the same project may have changed it.
        const tree = await load();
        const result = change(tree);
        await writeFileAtomically(file, `${JSON.stringify({ version: 1, frames: tree.frames }, null, 2)}\n`, 0o600, () => assertHeld(signal));
        cached = tree;
        loadedAt = Date.now();
        return result;
      }),
  };
}
