/**
 * The state folder's mark of the plugin's last write to memory: a file whose
 * modification time is when any process sharing the folder last wrote a note
 * or a thought. A block session start saved (graph/saved-block.ts) was read
 * after that time, or it may miss what was written: told from one `stat`,
 * without reading the store, so a session's first call can take it while the
 * workers have not started.
 *
 * Each write appends a byte: the kernel stamps every append, so the last one
 * wins whichever process made it, with no lock and no read. The file is
 * emptied past a few kilobytes, which stamps it as well.
 */
import { open, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { makeDirectory } from '../../io/atomic-file.js';

/** Past this size the mark is emptied. */
const MAX_MARK_BYTES = 4096;

/**
 * The file stamps may lag the clock a read's start is taken from by a tick of the kernel's coarse clock: a
 * block read this soon after a write is taken as read before it.
 */
export const MARK_SLACK_MS = 50;

/**
 * Where the mark lives.
 *
 * @param stateDir - the plugin's state folder.
 */
export function writtenMarkFile(stateDir: string): string {
  return join(stateDir, 'memory-written');
}

/**
 * Stamps the mark now. Never throws.
 *
 * @param file - from {@link writtenMarkFile}.
 * @returns whether it was stamped.
 */
export async function markWritten(file: string): Promise<boolean> {
  try {
    const handle = await open(file, 'a').catch(async (error: NodeJS.ErrnoException) => {
      // The state folder is made once, by the first stamp that finds it missing.
      if (error.code !== 'ENOENT') throw error;
      await makeDirectory(dirname(file));
      return open(file, 'a');
    });
    try {
      await handle.write('.');
      if ((await handle.stat()).size > MAX_MARK_BYTES) await handle.truncate(0);
    } finally {
      await handle.close();
    }
    return true;
  } catch {
    return false;
  }
}

/**
 * When memory was last written, UTC milliseconds: `0` when the mark was never stamped, `null` when it
 * cannot be read (nothing may then be taken as read after it).
 *
 * @param file - from {@link writtenMarkFile}.
 */
export async function lastWritten(file: string): Promise<number | null> {
  try {
    return (await stat(file)).mtimeMs;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 0 : null;
  }
}

/**
 * Whether what was read from `readAt` on saw every write the mark knows of.
 *
 * @param readAt - when the reads began, UTC milliseconds.
 * @param written - from {@link lastWritten}.
 */
export function readAfterWrites(readAt: number, written: number | null): boolean {
  return written !== null && readAt > written + MARK_SLACK_MS;
}
