/**
 * Durable whole-file writes for everything the plugin keeps on disk (notes,
 * outbox entries, chain and frame state, the memory index cache): a reader
 * sees the old file or the new one, never half of either, and the new one
 * survives a power cut.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, open, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * `mkdir -p`, failing with the real cause: on a read-only file system Node's recursive mkdir reports a
 * missing folder as ENOENT; the first missing folder is then made on its own, which names EROFS or EACCES.
 *
 * @param path - the folder to create, with its missing parents.
 * @param mode - permissions of the folders created. @default 0o777 (less the umask)
 */
export async function makeDirectory(path: string, mode?: number): Promise<void> {
  try {
    await mkdir(path, { recursive: true, ...(mode !== undefined ? { mode } : {}) });
  } catch (error) {
    if ((error as NodeJS.ErrnoException)?.code !== 'ENOENT') throw error;
    let missing = path;
    while (dirname(missing) !== missing && !(await stat(dirname(missing)).then(() => true, () => false))) missing = dirname(missing);
    await mkdir(missing, mode);
    // Made after all (a parent was removed meanwhile): the rest, as asked.
    await mkdir(path, { recursive: true, ...(mode !== undefined ? { mode } : {}) });
  }
}

/** The temporary file a write of `path` goes through, beside it. */
function temporaryPath(path: string): string {
  return join(dirname(path), `.${basename(path)}.${randomUUID()}.tmp`);
}

/** Whether `name` is a temporary file left by {@link writeFileAtomically}. */
export function isTemporaryName(name: string): boolean {
  return /^\..+\.[0-9a-f-]{36}\.tmp$/.test(name);
}

/** Writes all of `text` at the handle's position: a write may take part of what it is given. */
async function writeAll(handle: FileHandle, text: string): Promise<void> {
  const bytes = Buffer.from(text, 'utf8');
  let offset = 0;
  while (offset < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset);
    if (bytesWritten <= 0) throw new Error(`the write stopped after ${offset} of ${bytes.length} bytes`);
    offset += bytesWritten;
  }
}

/**
 * Writes `content` to `path`: a temporary file beside it, fsync, rename over
 * `path`, fsync of the folder. Whatever step fails (a full disk while writing
 * or syncing, a failed rename), the temporary file is removed before the
 * error is passed on.
 *
 * @param path - the file to replace or create; its folder is created when missing.
 * @param content - the whole new content, as UTF-8, or its pieces in order (made while the write goes on).
 * @param mode - permissions of a new file. @default 0o644
 * @param beforeRename - a last check before the new file replaces the old one (a lost lock, a passed deadline); throwing or rejecting stops the write.
 */
export async function writeFileAtomically(path: string, content: string | AsyncIterable<string>, mode = 0o644, beforeRename?: () => void | Promise<void>): Promise<void> {
  const folder = dirname(path);
  await makeDirectory(folder);
  const temporary = temporaryPath(path);
  const handle = await open(temporary, 'wx', mode);
  try {
    try {
      if (typeof content === 'string') await handle.writeFile(content, 'utf8');
      else for await (const piece of content) await writeAll(handle, piece);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await beforeRename?.();
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined);
    throw error;
  }
  // The rename itself must survive a power cut.
  const directory = await open(folder, 'r');
  try {
    await directory.sync();
  } finally {
    await directory.close();
  }
}
