/**
 * The block session start last built for a project, kept in the state
 * folder with what it was built from. A session whose first call comes
 * before the build is done (OpenCode just started and the pool's workers
 * have not, or the block went stale) is answered with it in either of two
 * cases. At once, when no process sharing the state folder has written to
 * memory since the block's reads began (memory/written-mark.ts): one `stat`,
 * no read of the store, no worker. Or, once the store's reads show the
 * project's memory is what it was then: the same notes, digest and summary,
 * read the same way (another tool, or a folder shared by another machine,
 * may have written). That session then keeps the block for all its calls,
 * as every session keeps the one it started with.
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { makeDirectory, writeFileAtomically } from '../../io/atomic-file.js';
import { readAfterWrites } from '../memory/written-mark.js';

/** A block as saved. */
export interface SavedBlock {
  /** What it was built from ({@link blockSignature}). */
  signature: string;
  /** The block; `null`: the memory gave none. */
  text: string | null;
  /** When it was built, UTC milliseconds. */
  builtAt: number;
  /** When the reads it was built from began, UTC milliseconds. */
  readAt: number;
}

/** Older blocks are not offered: the digest's ranking moves with the days since an item was said. */
export const SAVED_BLOCK_MAX_AGE_MS = 86_400_000;

/** A larger file is not the plugin's: a block is at most a few thousand tokens. */
const MAX_FILE_BYTES = 256 * 1024;

/** Bumped when a block's text or what its signature covers changes shape. */
const FORMAT = 2;

/**
 * Where a project's saved block lives.
 *
 * @param stateDir - the plugin's state folder.
 * @param projectKey - the project's key (`[a-z0-9-]` only).
 */
export function savedBlockFile(stateDir: string, projectKey: string): string {
  return join(stateDir, 'session-start', `${projectKey}.json`);
}

/**
 * A digest of what a block is built from: two builds with the same signature read the same project memory
 * with the same options.
 *
 * @param parts - plain data: the options, the project and what was read for its memory.
 */
export function blockSignature(parts: unknown): string {
  return createHash('sha256').update(JSON.stringify([FORMAT, parts])).digest('hex');
}

function isSavedBlock(value: unknown): value is SavedBlock {
  if (typeof value !== 'object' || value === null) return false;
  const block = value as Record<string, unknown>;
  return (
    block['format'] === FORMAT &&
    typeof block['signature'] === 'string' &&
    (block['text'] === null || typeof block['text'] === 'string') &&
    typeof block['builtAt'] === 'number' &&
    typeof block['readAt'] === 'number'
  );
}

/**
 * The saved block, or `null` when there is none or it cannot be read as one (never throws: a missing or
 * damaged file only means the next session waits for the build).
 *
 * @param file - from {@link savedBlockFile}.
 */
export async function loadSavedBlock(file: string): Promise<SavedBlock | null> {
  try {
    if ((await stat(file)).size > MAX_FILE_BYTES) return null;
    const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
    return isSavedBlock(parsed) ? { signature: parsed.signature, text: parsed.text, builtAt: parsed.builtAt, readAt: parsed.readAt } : null;
  } catch {
    return null;
  }
}

/**
 * Saves a block, written whole or not at all.
 *
 * @param file - from {@link savedBlockFile}.
 * @param block - the block and its signature.
 * @returns whether it was written.
 */
export async function saveBlock(file: string, block: SavedBlock): Promise<boolean> {
  try {
    await makeDirectory(dirname(file));
    await writeFileAtomically(file, `${JSON.stringify({ format: FORMAT, ...block })}\n`);
    return true;
  } catch {
    // A state folder that refuses the write leaves the next start to wait for its build, as before.
    return false;
  }
}

/**
 * Whether a saved block answers a build with this signature now.
 *
 * @param saved - the saved block, if any.
 * @param signature - the build's.
 * @param now - UTC milliseconds.
 */
export function answersFor(saved: SavedBlock | null, signature: string, now: number): saved is SavedBlock {
  return saved !== null && saved.signature === signature && young(saved, now);
}

/**
 * Whether a saved block answers now without any read of the store: nothing was written to memory since its
 * reads began.
 *
 * @param saved - the saved block, if any.
 * @param written - when memory was last written (memory/written-mark.ts `lastWritten`).
 * @param now - UTC milliseconds.
 */
export function answersUnread(saved: SavedBlock | null, written: number | null, now: number): saved is SavedBlock {
  return saved !== null && young(saved, now) && readAfterWrites(saved.readAt, written);
}

function young(saved: SavedBlock, now: number): boolean {
  return now - saved.builtAt >= 0 && now - saved.builtAt <= SAVED_BLOCK_MAX_AGE_MS;
}
