import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFolderIndex, type FolderIndex } from '../../../../src/main/memory/files/folder-index.js';
import { createFileStoreReads } from '../../../../src/main/memory/files/file-store-reads.js';
import { createInlineRunner } from '../../../../src/main/pool/inline-runner.js';
import { createWorkerPool, type WorkerPool } from '../../../../src/main/pool/worker-pool.js';
import type { TaskRunner } from '../../../../src/main/pool/task-runner.js';
import { createLogger } from '../../../../src/main/shared/logger.js';
import { createFakeHost } from '../../../../support/fake-host.js';
import { testWorkerFile } from '../../../support/plugin-harness.js';
import { scratchFolders } from '../../../support/scratch.js';

const newRoot = scratchFolders('folder-index-root');
const newStateDir = scratchFolders('folder-index-state');
let cleanup: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

const GOOD = '# Good\n\n[[redis]] backs the [[cache-layer]]; the [[cache-layer]] needs [[redis]].\n';

/** A memory folder of `bulk` tiny notes and three good ones that relate `redis` and `cache-layer`. */
async function memoryFolder(bulk: number): Promise<string> {
  const memoryDir = join(await newRoot(), 'memory');
  await mkdir(join(memoryDir, 'bulk'), { recursive: true });
  await mkdir(join(memoryDir, 'tech'));
  for (let index = 0; index < 3; index++) await writeFile(join(memoryDir, 'tech', `good-${index}.md`), GOOD);
  for (let index = 0; index < bulk; index++) await writeFile(join(memoryDir, 'bulk', `n${index}.md`), `# N${index}\n\nSee [[topic-${index % 40}]].\n`);
  return memoryDir;
}

/** Whether a batch holds one of the good notes. */
const holdsGood = (uris: readonly string[]): boolean => uris.some((uri) => uri.startsWith('memory://tech/good-'));

describe('createFolderIndex', () => {
  it('should answer from what it read so far when a build outruns its budget, go on in the background, and give the good notes once read, reading each file once', async () => {
    const memoryDir = await memoryFolder(600);
    const inline = await createInlineRunner();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    cleanup.push(() => release());
    const read: string[] = [];
    let scans = 0;
    // The batches that hold the good notes wait at the gate: the build outruns any budget until it opens.
    const runner: TaskRunner = {
      async run(name, input, controls) {
        if (name === 'scanMemoryFolder') scans += 1;
        if (name === 'indexMemoryFiles') {
          const { uris } = input as { uris: string[] };
          read.push(...uris);
          if (holdsGood(uris)) await gate;
        }
        return inline.run(name, input, controls);
      },
    };
    const index = createFolderIndex({ memoryDir, stateDir: await newStateDir(), runner, logger: createLogger(undefined), batchSize: 50, concurrentBatches: 4, answerWithinMs: 50, persistDelayMs: 0, watch: false });
    cleanup.push(() => index.close());
    const reads = createFileStoreReads({ memoryDir, index, runner, now: Date.now });

    let first: unknown = 'pending';
    void reads.related({ concept: 'redis' }).then((answer) => (first = answer));
    await vi.waitFor(() => expect(first).not.toBe('pending'), { timeout: 10_000, interval: 20 });
    expect(first).toEqual([]);
    // The bulk notes around the held batches landed and are answered from; the build is still running.
    await vi.waitFor(async () => expect((await index.refresh()).entries.size).toBeGreaterThanOrEqual(500), { timeout: 10_000, interval: 20 });
    const before = index.revision();

    release();
    await vi.waitFor(async () => expect((await reads.related({ concept: 'redis' })).map((relation) => relation.name)).toContain('cache-layer'), { timeout: 10_000, interval: 20 });
    expect(index.revision()).toBeGreaterThan(before);
    await index.whenIdle();
    // Never started over: one walk, and each file read once.
    expect(scans).toBe(1);
    expect(read).toHaveLength(603);
    expect(new Set(read).size).toBe(603);
  });

  describe('with hostile files', () => {
    let pool: WorkerPool | undefined;
    afterEach(async () => {
      await pool?.destroy();
      pool = undefined;
    });

    it('should leave out a note past the size cap and one that is not a regular file with a log line each, follow no symbolic link, and index the rest', async () => {
      const memoryDir = await memoryFolder(0);
      // A FIFO named like a note stands for a note that cannot be read (the tests run as root, for whom
      // chmod 000 blocks nothing); with a task deadline of 5 s, a worker that opened it would fail its batch.
      pool = createWorkerPool({ threads: 1, warmUp: false, taskTimeoutMs: 5_000 }, await testWorkerFile());
      const host = createFakeHost();
      const logger = createLogger(host.client);
      // A large note of a few MB stands for a 200 MB one, with the cap lowered to 64 KB.
      await writeFile(join(memoryDir, 'huge.md'), `# Huge\n\n${'[[huge-topic]] and words. '.repeat(100_000)}`);
      await symlink(memoryDir, join(memoryDir, 'loop'));
      await symlink(join(memoryDir, 'tech'), join(memoryDir, 'tech', 'again'));
      await symlink(join(memoryDir, 'tech', 'good-0.md'), join(memoryDir, 'tech', 'link.md'));
      const index: FolderIndex = createFolderIndex({ memoryDir, stateDir: await newStateDir(), runner: pool, logger, maxNoteBytes: 64 * 1024, answerWithinMs: 60_000, freshForMs: 0, persistDelayMs: 0, watch: true });
      cleanup.push(() => index.close());
      const reads = createFileStoreReads({ memoryDir, index, runner: pool, now: Date.now });

      const first = await index.refresh();
      expect([...first.entries.keys()].sort()).toEqual(['memory://tech/good-0', 'memory://tech/good-1', 'memory://tech/good-2']);
      // The second walk finds the folders watched since the first unchanged: from then on the watch's events are followed.
      await index.refresh();

      // Seen through the folder watch: a FIFO and a folder named like notes, and a new good note.
      const fifo = join(memoryDir, 'tech', 'pipe.md');
      execFileSync('mkfifo', [fifo]);
      cleanup.push(() => {
        // Should anything have opened the FIFO to read, a writer that opens and closes it lets that read end.
        try {
          closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
        } catch {
          // Nobody is reading it.
        }
      });
      await mkdir(join(memoryDir, 'tech', 'folder.md'));
      await writeFile(join(memoryDir, 'tech', 'folder.md', 'inner.md'), '# Inner\n\n[[inner-topic]] with [[redis]].\n');
      await writeFile(join(memoryDir, 'tech', 'good-3.md'), GOOD);
      const second = await index.refresh();
      expect(index.lastReport()?.found).toBe('walk');
      expect([...second.entries.keys()].sort()).toEqual(['memory://tech/folder.md/inner', 'memory://tech/good-0', 'memory://tech/good-1', 'memory://tech/good-2', 'memory://tech/good-3']);
      await expect(reads.readNote('memory://tech/pipe')).rejects.toMatchObject({ toolCode: 'NOT_FOUND' });
      await expect(reads.readNote('memory://huge')).rejects.toMatchObject({ toolCode: 'VALIDATION_ERROR' });

      // Left out once, logged once.
      await writeFile(join(memoryDir, 'tech', 'good-4.md'), GOOD);
      expect((await index.refresh()).entries.has('memory://tech/good-4')).toBe(true);
      await logger.flush();
      expect(host.linesWith('left out memory://huge').map((line) => line.message)).toEqual(['memory index: left out memory://huge (2600008 bytes, more than the 65536 read); it is read again once it changes']);
      expect(host.linesWith('left out memory://tech/pipe')).toHaveLength(1);
    });
  });
});
