/**
 * The worker pool shared on purpose by the plugin's instances in one
 * process. OpenCode 2.x runs plugins in one background service and boots a
 * `setup` per project folder, so a process may hold many instances; each
 * starting its own pool would start its own workers and warm-ups. Instances
 * whose pool options are the same share one pool, which stops when the last
 * of them gives it back.
 */
import { createWorkerPool, type WarmUpStart, type WorkerPool } from '../../pool/worker-pool.js';
import type { PluginOptions } from '../../options/plugin-options.js';

interface Shared {
  pool: WorkerPool;
  users: number;
}

/** Pools shared in this process, by their options and worker module. */
export interface SharedPools {
  /** A pool for these options; `warmUpStart` is heeded by the instance that starts it. */
  acquire(options: PluginOptions['pool'], workerFile?: string, warmUpStart?: WarmUpStart): WorkerPool;
  release(pool: WorkerPool): Promise<void>;
  /** Pools running now. */
  readonly size: number;
}

/** A set of shared pools (one per process in production; tests make their own). */
export function createSharedPools(start: typeof createWorkerPool = createWorkerPool): SharedPools {
  const pools = new Map<string, Shared>();
  return {
    acquire(options, workerFile, warmUpStart) {
      const key = JSON.stringify([options, workerFile ?? null]);
      const known = pools.get(key);
      if (known) {
        known.users += 1;
        return known.pool;
      }
      const pool = start(options, workerFile, warmUpStart);
      pools.set(key, { pool, users: 1 });
      return pool;
    },
    async release(pool) {
      for (const [key, shared] of pools) {
        if (shared.pool !== pool) continue;
        shared.users -= 1;
        if (shared.users > 0) return;
        pools.delete(key);
        await pool.destroy();
        return;
      }
    },
    get size() {
      return pools.size;
    },
  };
}

/** The process's shared pools. */
export const processPools: SharedPools = createSharedPools();
