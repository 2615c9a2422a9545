/**
 * The block session start last built for a project, kept in the state
 * folder with what it was built from. A session whose first call comes
 * before the build is done (OpenCode just started and the pool's workers
 * are still loading, or the block went stale) is answered with it when the
 * project's memory is what it was then: the same notes, digest and summary
 * read the same way. What those reads give is known from the store alone,
 * without a worker, so that session waits for no worker; it then keeps the
 * block for all its calls, as every session keeps the one it started with.
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { makeDirectory, writeFileAtomically } from '../../io/atomic-file.js';

/** A block as saved. */
export interface SavedBlock {
  /** What it was built from ({@link blockSignature}). */
  signature: string;
  /** The block; `null`: the memory gave none. */
  text: string | null;
  /** When it was built, UTC milliseconds. */
  builtAt: number;
}

/** Older blocks are not offered: the digest's ranking moves with the days since an item was said. */
export const SAVED_BLOCK_MAX_AGE_MS = 86_400_000;

/** A larger file is not the plugin's: a block is at most a few thousand tokens. */
const MAX_FILE_BYTES = 256 * 1024;

/** Bumped when a block's text or what its signature covers changes shape. */
const FORMAT = 1;

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
  return typeof block['signature'] === 'string' && (block['text'] === null || typeof block['text'] === 'string') && typeof block['builtAt'] === 'number';
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
    return isSavedBlock(parsed) ? { signature: parsed.signature, text: parsed.text, builtAt: parsed.builtAt } : null;
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
    await writeFileAtomically(file, `${JSON.stringify(block)}\n`);
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
  return saved !== null && saved.signature === signature && now - saved.builtAt >= 0 && now - saved.builtAt <= SAVED_BLOCK_MAX_AGE_MS;
}
