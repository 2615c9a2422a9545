/**
 * One worker pool for the plugins of the test files a vitest worker runs, where no test is about a fresh
 * worker. The files of a vitest worker share its module graph (vitest.config.ts), so the pool started for
 * the first file that asks serves the next ones too: each file that started and warmed up a pool of its
 * own paid about a second and a half of CPU for it. The pool lives as long as the vitest worker, which
 * vitest ends with a signal after its last file; a file never destroys it. Apart from plugin-harness.ts
 * because it registers vitest's hooks, and the harness also runs outside vitest (the hanging-CLI probe,
 * under Bun).
 */
import { beforeAll } from 'vitest';
import type { WorkerPool } from '../../src/main/pool/worker-pool.js';
import { startTestPool } from './plugin-harness.js';

let shared: Promise<WorkerPool> | undefined;

/** The shared pool, started again when an earlier file left it without a worker (a test that stopped it). */
async function sharedPool(): Promise<WorkerPool> {
  const current = shared ? await shared.catch(() => undefined) : undefined;
  if (current && current.stats().threads > 0) return current;
  shared = startTestPool();
  return shared;
}

/**
 * Call at the top of a test file. The plugins that use the pool leave it running when they stop.
 *
 * @returns the pool, once the file's first test may run.
 */
export function filePool(): () => WorkerPool {
  let pool: WorkerPool | undefined;
  beforeAll(async () => {
    pool = await sharedPool();
  });
  return () => {
    if (pool === undefined) throw new Error('the file pool is started before the first test');
    return pool;
  };
}
