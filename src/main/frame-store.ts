/**
 * The frame tree of one project on disk, so frames survive a restart: one
 * JSON file per worktree under the state folder, written atomically
 * (temporary file, fsync, rename). A missing or damaged file is an empty
 * tree, never an error; frames that do not have the expected shape are
 * dropped when read.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { emptyTree, FRAME_OUTCOMES, type Frame, type FrameTree } from './frame-state.js';
import { writeFileAtomically } from './atomic-file.js';

/** Reads and changes one project's frames. */
export interface FrameStore {
  /** The tree as last read or written (read from disk the first time). */
  read(): Promise<FrameTree>;
  /** Applies `change` to the tree as it is on disk and writes the result, one change at a time. */
  update<T>(change: (tree: FrameTree) => T): Promise<T>;
  readonly file: string;
}

const STATUSES = new Set(['in_progress', 'completing', 'completed', 'failed', 'blocked']);

function isFrame(value: unknown): value is Frame {
  const frame = value as Frame;
  return (
    typeof frame?.sessionID === 'string' &&
    (frame.parentID === null || typeof frame.parentID === 'string') &&
    typeof frame.goal === 'string' &&
    typeof frame.successCriteria === 'string' &&
    STATUSES.has(frame.status) &&
    (frame.outcome === undefined || FRAME_OUTCOMES.includes(frame.outcome)) &&
    Array.isArray(frame.artifacts) &&
    frame.artifacts.every((path) => typeof path === 'string') &&
    typeof frame.createdAt === 'string'
  );
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

/**
 * @param file - the tree's file, from {@link frameFileFor}.
 */
export function createFrameStore(file: string): FrameStore {
  let cached: FrameTree | null = null;
  let queue: Promise<unknown> = Promise.resolve();

  async function load(): Promise<FrameTree> {
    const tree = emptyTree();
    try {
      const parsed = JSON.parse(await readFile(file, 'utf8')) as { frames?: unknown };
      if (typeof parsed?.frames !== 'object' || parsed.frames === null) return tree;
      for (const [id, frame] of Object.entries(parsed.frames)) if (isFrame(frame) && frame.sessionID === id) tree.frames[id] = frame;
    } catch {
      // No file yet, or a damaged one: no frames.
    }
    return tree;
  }

  async function save(tree: FrameTree): Promise<void> {
    await writeFileAtomically(file, `${JSON.stringify({ version: 1, frames: tree.frames }, null, 2)}\n`, 0o600);
  }

  function serially<T>(work: () => Promise<T>): Promise<T> {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  }

  return {
    file,
    read: () => (cached ? Promise.resolve(cached) : serially(async () => (cached ??= await load()))),
    update: (change) =>
      serially(async () => {
        // From disk: another OpenCode process of the same project may have changed it.
        const tree = await load();
        const result = change(tree);
        await save(tree);
        cached = tree;
        return result;
      }),
  };
}
