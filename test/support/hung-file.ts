/**
 * A state file whose reads hang, for deadline tests.
 */
import { execFileSync } from 'node:child_process';
import { open } from 'node:fs/promises';
import { join } from 'node:path';

/** A FIFO whose reads never complete until a writer comes: a hung network home in miniature. */
/**
 * @param dir - where to make it.
 * @param name - its name.
 * @returns its path, and `release` which lets every pending read return (call it before the test ends).
 */
export async function hungFile(dir: string, name: string): Promise<{ path: string; release: () => Promise<void> }> {
  const path = join(dir, name);
  execFileSync('mkfifo', [path]);
  let released = false;
  const release = async (): Promise<void> => {
    if (released) return;
    released = true;
    // A writer that closes at once: the reader gets end of file and its thread is free again.
    const writer = await open(path, 'w');
    await writer.write('{"frames":{}}');
    await writer.close();
  };
  return { path, release };
}

