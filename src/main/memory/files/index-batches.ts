/**
 * Reading and indexing a refresh's changed files in the pool, batch by batch:
 * a few batches at a time (a task's deadline runs from the moment it is
 * queued, so a thousand batches queued at once would time out in the queue),
 * each batch handed on as soon as it is read, so what was read stays read
 * whatever happens to the batches after it. A batch that fails because of
 * what it holds (a worker crash, a deadline) is split in two and each half
 * tried again, down to the one file that fails alone, which is reported and
 * left out; a batch the pool could not take (stopped, queue full) is handed
 * back to be read at the next refresh.
 */
import type { MemoryIndexEntry } from '../../../workers/protocol.js';
import type { TaskRunner } from '../../pool/task-runner.js';

/** Failures that say nothing about the files: the pool could not take the task. */
const POOL_REFUSALS = new Set(['POOL_UNAVAILABLE', 'POOL_DESTROYED', 'QUEUE_FULL']);

/** What {@link indexInBatches} reports as it goes. */
export interface BatchListener {
  /** A batch was read: its entries, and its URIs that vanished or could not be read. */
  landed(entries: MemoryIndexEntry[], missing: string[]): void;
  /** One file failed alone: it is left out. */
  failed(uri: string, why: string): void;
  /** The pool could not take these files: they are read at the next refresh. */
  deferred(uris: string[], why: string): void;
}

/** Settings of {@link indexInBatches}. */
export interface BatchSettings {
  memoryDir: string;
  runner: TaskRunner;
  /** Files per task. */
  batchSize: number;
  /** Tasks at a time. */
  concurrency: number;
}

/**
 * Reads and indexes `uris`; resolves when every batch has landed, failed or been deferred. Never rejects.
 *
 * @param uris - the files to read.
 * @param settings - see {@link BatchSettings}.
 * @param listener - told about each batch as it ends.
 */
export async function indexInBatches(uris: readonly string[], settings: BatchSettings, listener: BatchListener): Promise<void> {
  const { memoryDir, runner, batchSize } = settings;
  const queue: string[][] = [];
  for (let start = 0; start < uris.length; start += batchSize) queue.push(uris.slice(start, start + batchSize));

  async function readOne(batch: string[]): Promise<void> {
    let result;
    try {
      result = await runner.run('indexMemoryFiles', { memoryDir, uris: batch });
    } catch (error) {
      // A runner never rejects; should one, the files are read again next time.
      listener.deferred(batch, (error as Error)?.message ?? String(error));
      return;
    }
    if (result.ok) return listener.landed(result.value.entries, result.value.missing);
    const why = `${result.error.code}: ${result.error.message}`;
    if (POOL_REFUSALS.has(result.error.code)) return listener.deferred(batch, why);
    if (batch.length === 1) return listener.failed(batch[0] as string, why);
    // Halves go first, so the file at fault is found before the rest of the folder is read.
    const half = Math.ceil(batch.length / 2);
    queue.unshift(batch.slice(0, half), batch.slice(half));
  }

  async function drain(): Promise<void> {
    for (let batch = queue.shift(); batch; batch = queue.shift()) await readOne(batch);
  }

  await Promise.all(Array.from({ length: Math.max(1, settings.concurrency) }, drain));
}
