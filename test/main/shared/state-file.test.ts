import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keepAside, readStateText } from '../../../src/main/shared/state-file.js';
import { createLogger } from '../../../src/main/shared/logger.js';
import { createFakeHost } from '../../../support/fake-host.js';
import { hungFile } from '../../support/hung-file.js';
import { scratchFolders } from '../../support/scratch.js';

const scratch = scratchFolders('state-file');

describe('readStateText', () => {
  it('should give up a read that never completes, refuse a second one while it hangs, and read again once it returns', async () => {
    const dir = await scratch();
    const hung = await hungFile(dir, 'frames.json');
    const first = readStateText(hung.path, 150);
    await expect(first).rejects.toMatchObject({ code: 'STATE_TIMEOUT' });
    await expect(readStateText(hung.path, 10_000)).rejects.toThrow('has not returned');
    const again = readStateText(hung.path, 10_000).catch(() => 'refused');
    await hung.release();
    expect(await again).toBe('refused');
    await rm(hung.path);
    await writeFile(hung.path, 'plain');
    // The first read returns once released, on a thread of libuv's pool: on a loaded machine a little after
    // `release` has. Until then a new read is refused, as above.
    const deadline = Date.now() + 10_000;
    let text = await readStateText(hung.path, 10_000).catch((error: unknown) => error);
    while (text instanceof Error && text.message.includes('has not returned') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      text = await readStateText(hung.path, 10_000).catch((error: unknown) => error);
    }
    expect(text).toBe('plain');
  });

  it('should answer null for a missing file', async () => {
    expect(await readStateText(join(await scratch(), 'none.json'), 1_000)).toBeNull();
  });

  it('should keep aside a folder where the file should be, as a damaged file, and read it as missing', async () => {
    const dir = await scratch();
    const path = join(dir, 'frames.json');
    await mkdir(join(path, 'inner'), { recursive: true });
    await expect(readStateText(path, 1_000)).rejects.toMatchObject({ code: 'EISDIR' });
    const host = createFakeHost();
    expect(await readStateText(path, 1_000, { what: 'goal-frame state', logger: createLogger(host.client) })).toBeNull();
    expect((await readdir(dir)).filter((name) => name.startsWith('frames.json.corrupt-'))).toHaveLength(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(host.linesWith('goal-frame state')).toHaveLength(1);
  });
});

describe('keepAside', () => {
  it('should move a damaged file to <name>.corrupt-<time> and log it once', async () => {
    const dir = await scratch();
    const host = createFakeHost();
    const file = join(dir, 'summary-chains.json');
    await writeFile(file, '{"acme": {"sessionId": "ses');
    expect(await keepAside(file, 'summary chain state', createLogger(host.client), () => Date.UTC(2026, 10, 23, 12))).toBe(true);
    expect(await readdir(dir)).toEqual(['summary-chains.json.corrupt-2026-11-23T12-00-00-000Z']);
    expect(await readFile(join(dir, 'summary-chains.json.corrupt-2026-11-23T12-00-00-000Z'), 'utf8')).toBe('{"acme": {"sessionId": "ses');
    expect(await keepAside(file, 'summary chain state', createLogger(host.client))).toBe(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(host.linesWith('kept aside')).toHaveLength(1);
  });
});
