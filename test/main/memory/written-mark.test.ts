import { stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lastWritten, markWritten, MARK_SLACK_MS, readAfterWrites, writtenMarkFile } from '../../../src/main/memory/written-mark.js';
import { countingWrites } from '../../../src/main/memory/counting-writes.js';
import { createFileStore } from '../../../src/main/memory/files/file-store.js';
import { lazyInlineRunner } from '../../../src/main/pool/inline-runner.js';
import { createLogger } from '../../../src/main/shared/logger.js';
import { scratchFolders } from '../../support/scratch.js';

const scratch = scratchFolders('written-mark');

describe('written mark', () => {
  it('should tell never written, then the time of the last stamp, whichever of two writers made it', async () => {
    const file = writtenMarkFile(join(await scratch(), 'state'));
    expect(await lastWritten(file)).toBe(0);
    const before = Date.now();
    expect(await markWritten(file)).toBe(true);
    const first = await lastWritten(file);
    expect(first).not.toBeNull();
    expect(first as number).toBeGreaterThanOrEqual(before - MARK_SLACK_MS);
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Two processes stamping at once: each append is stamped as it lands, the last one stands.
    await Promise.all([markWritten(file), markWritten(file)]);
    expect(await lastWritten(file)).toBeGreaterThan(first as number);
  });

  it('should keep the file small: emptied past a few kilobytes, and stamped by that too', async () => {
    const file = writtenMarkFile(await scratch());
    await writeFile(file, '.'.repeat(4096));
    const grown = (await stat(file)).mtimeMs;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await markWritten(file)).toBe(true);
    expect((await stat(file)).size).toBe(0);
    expect(await lastWritten(file)).toBeGreaterThan(grown);
  });

  it('should take reads as after the writes only past the slack, and never when the mark cannot be read', () => {
    expect(readAfterWrites(10_000, 0)).toBe(true);
    expect(readAfterWrites(10_000, 10_000 - MARK_SLACK_MS - 1)).toBe(true);
    expect(readAfterWrites(10_000, 10_000 - MARK_SLACK_MS)).toBe(false);
    expect(readAfterWrites(10_000, 10_001)).toBe(false);
    expect(readAfterWrites(10_000, null)).toBe(false);
  });

  it('should say it cannot tell when the state folder is not a folder', async () => {
    const dir = await scratch();
    await writeFile(join(dir, 'state'), 'not a folder');
    const file = writtenMarkFile(join(dir, 'state'));
    expect(await markWritten(file)).toBe(false);
    expect(await lastWritten(file)).toBeNull();
  });
});

describe('countingWrites with a mark', () => {
  it('should stamp the mark for each write that landed, before the write returns, and never for one that failed', async () => {
    const dir = await scratch();
    const file = writtenMarkFile(join(dir, 'state'));
    const files = createFileStore({ root: join(dir, 'root'), stateDir: join(dir, 'state'), runner: lazyInlineRunner(), logger: createLogger(undefined), index: { watch: false } });
    const memory = countingWrites(files, file);
    try {
      // No WikiLink: the store refuses it, as maenifold does.
      const refused = await memory.writeNote({ title: 'plain', content: 'no link here', folder: 'notes' }, { timeoutMs: 5_000 });
      expect(refused.ok).toBe(false);
      expect(await lastWritten(file)).toBe(0);
      const before = memory.revision?.() ?? 0;
      const written = await memory.writeNote({ title: 'linked', content: 'about [[caching]]', folder: 'notes' }, { timeoutMs: 5_000 });
      expect(written.ok).toBe(true);
      expect(await lastWritten(file)).toBeGreaterThan(0);
      expect(memory.revision?.()).toBeGreaterThan(before);
    } finally {
      await files.close();
    }
  });
});
