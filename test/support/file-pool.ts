/**
 * One worker pool for the plugins of a test file, where no test is about a fresh worker: started before
 * the file's first test (`startTestPool`), destroyed after its last. Apart from plugin-harness.ts because
 * it registers vitest's hooks, and the harness also runs outside vitest (the hanging-CLI probe, under Bun).
 */
import { afterAll, beforeAll } from 'vitest';
import type { WorkerPool } from '../../src/main/pool/worker-pool.js';
import { startTestPool } from './plugin-harness.js';

/**
 * Call at the top of a test file. After-hooks run in reverse order of registration: call it before what
 * registers the hooks that stop the plugins using the pool, so they stop first.
 *
 * @returns the pool, once the file's first test may run.
 */
export function filePool(): () => WorkerPool {
  let pool: WorkerPool | undefined;
  beforeAll(async () => {
    pool = await startTestPool();
  });
  afterAll(async () => {
    await pool?.destroy();
  });
  return () => {
    if (pool === undefined) throw new Error('the file pool is started before the first test');
    return pool;
  };
}
