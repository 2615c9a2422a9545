/**
 * Scratch folders for tests: each a new folder under the system's temporary
 * folder, removed with everything in it once the tests that made it are done.
 * Only for test files (it uses vitest's hooks); the support modules that also
 * run outside vitest (the harness, the double, the soak) make their own.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, onTestFinished } from 'vitest';

async function remove(dirs: readonly string[]): Promise<void> {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true, maxRetries: 5 })));
}

/**
 * A maker of scratch folders. Call it at the top of a test file or of a `describe` block.
 *
 * @param prefix - how each folder's name starts (a `-` and random characters follow).
 * @param removeAfter - `each`: a folder made in a test is removed when that test has finished, after
 *   its `afterEach` hooks (which may still stop what uses it); `all`: once the file's (or the block's)
 *   tests are done, for folders a `beforeAll` makes or tests share.
 * @returns a function that makes one more folder and resolves to its absolute path; a test run with
 *   `concurrent` passes its own context's `onTestFinished` (vitest cannot tell which of several tests
 *   running at once called the global one).
 */
export function scratchFolders(prefix: string, removeAfter: 'each' | 'all' = 'each'): (finished?: typeof onTestFinished) => Promise<string> {
  const made: string[] = [];
  if (removeAfter === 'all') afterAll(() => remove(made.splice(0)));
  return async (finished = onTestFinished) => {
    const dir = await mkdtemp(join(tmpdir(), `${prefix}-`));
    if (removeAfter === 'each') finished(() => remove([dir]));
    else made.push(dir);
    return dir;
  };
}
