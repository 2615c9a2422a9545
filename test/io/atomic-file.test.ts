import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeFileAtomically } from '../../src/io/atomic-file.js';
import { canMount, mountTmpfs, type Mount } from '../support/scratch-mount.js';
import { scratchFolders } from '../support/scratch.js';

const scratch = scratchFolders('atomic');
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});
const mountable = await canMount();

describe('writeFileAtomically', () => {
  it.runIf(mountable)('should leave no temporary file and the old content when the disk fills up (64 KB tmpfs)', async () => {
    const mount = (await mountTmpfs(64)) as Mount;
    cleanups.push(() => mount.unmount());
    const file = join(mount.dir, 'state.json');
    await writeFileAtomically(file, '{"old":true}\n');
    await expect(writeFileAtomically(file, 'x'.repeat(200 * 1024))).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(await readdir(mount.dir)).toEqual(['state.json']);
    expect(await readFile(file, 'utf8')).toBe('{"old":true}\n');
  });

  it('should leave no temporary file when the last check before the rename refuses', async () => {
    const dir = await scratch();
    const file = join(dir, 'state.json');
    await writeFile(file, 'old');
    await expect(
      writeFileAtomically(file, 'new', 0o600, () => {
        throw new Error('lock lost');
      }),
    ).rejects.toThrow('lock lost');
    expect(await readdir(dir)).toEqual(['state.json']);
    expect(await readFile(file, 'utf8')).toBe('old');
  });

  it('should leave no temporary file when the rename fails', async () => {
    const dir = await scratch();
    // A folder where the file should be: the rename is refused.
    await mkdtemp(join(dir, 'state.json'));
    const [target] = await readdir(dir);
    await expect(writeFileAtomically(join(dir, target as string), 'new')).rejects.toMatchObject({ code: expect.stringMatching(/EISDIR|ENOTEMPTY|EEXIST/) });
    expect(await readdir(dir)).toEqual([target]);
  });
});

describe('writeFileAtomically, in pieces', () => {
  async function* pieces(parts: readonly string[], failAt = -1): AsyncGenerator<string> {
    for (const [index, part] of parts.entries()) {
      if (index === failAt) throw new Error('the pieces ran out');
      yield part;
    }
  }

  it('should write the pieces in order, whole, in place of the old file', async () => {
    const dir = await scratch();
    const file = join(dir, 'cache', 'index.json');
    await writeFileAtomically(file, '{"v":1}', 0o600);
    const parts = ['{"v":2,"entries":[', 'é'.repeat(70_000), ',"ü"', ']}'];
    await writeFileAtomically(file, pieces(parts), 0o600);
    expect(await readFile(file, 'utf8')).toBe(parts.join(''));
    expect(await readdir(join(dir, 'cache'))).toEqual(['index.json']);
  });

  it('should leave the old file and no temporary one when making a piece fails', async () => {
    const dir = await scratch();
    const file = join(dir, 'index.json');
    await writeFileAtomically(file, 'old');
    await expect(writeFileAtomically(file, pieces(['{"v":2', ',"x":1', '}'], 2))).rejects.toThrow('the pieces ran out');
    expect(await readdir(dir)).toEqual(['index.json']);
    expect(await readFile(file, 'utf8')).toBe('old');
  });

  it.runIf(mountable)('should leave no temporary file and the old content when the disk fills up (64 KB tmpfs)', async () => {
    const mount = (await mountTmpfs(64)) as Mount;
    cleanups.push(() => mount.unmount());
    const file = join(mount.dir, 'index.json');
    await writeFileAtomically(file, '{"old":true}');
    await expect(writeFileAtomically(file, pieces(Array.from({ length: 8 }, () => 'x'.repeat(32 * 1024))))).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(await readdir(mount.dir)).toEqual(['index.json']);
    expect(await readFile(file, 'utf8')).toBe('{"old":true}');
  });
});
