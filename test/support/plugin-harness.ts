/**
 * A started plugin for hook tests: the real composition root and worker pool,
 * the maenifold double on a temporary root, and a fake host client.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMaenifoldPlugin, type MaenifoldPlugin } from '../../src/main/plugin/create-plugin.js';
import { createWorkerPool, type WorkerPool } from '../../src/main/pool/worker-pool.js';
import { createDoubleRoot, type DoubleRoot } from '../../support/maenifold-double.js';
import { createFakeHost, type FakeHost } from '../../support/fake-host.js';

export interface Harness {
  plugin: MaenifoldPlugin;
  host: FakeHost;
  double: DoubleRoot;
  stateDir: string;
  /** Stops the plugin and removes every temporary file. */
  close(): Promise<void>;
}

/** What a test file may share between the plugins it starts. */
export interface HarnessShared {
  /** A pool from `startTestPool`, used by the plugin instead of one of its own and left running by `close`. */
  pool?: WorkerPool;
  /** A memory root another plugin uses too (a second process, another project): `close` leaves it. */
  double?: DoubleRoot;
  /** A state folder another plugin uses too: `close` leaves it. */
  stateDir?: string;
  /** The project's worktree. @default '/work/acme-shop' */
  worktree?: string;
}

/**
 * The worker module the tests' pools start: under vitest, the bundle its global setup built
 * (`test-bundles.ts`); elsewhere (the hanging-CLI probe runs this harness under Bun), or when that
 * setup did not run, none, and the pool starts the worker as the sources run it.
 */
export async function testWorkerFile(): Promise<string | undefined> {
  // Loaded only under vitest: outside a test run its module has no state to read. A process a test
  // starts inherits VITEST from it (the end-to-end suite starts the probe under Bun), so the variable
  // alone does not tell; vitest's own state does, and `inject` throws without it.
  if (!process.env['VITEST']) return undefined;
  const { inject } = await import('vitest');
  try {
    return inject('workerBundle');
  } catch {
    return undefined;
  }
}

/**
 * A pool of one worker for the plugins of many tests (`filePool` in file-pool.ts shares one between the
 * files of a vitest worker): each plugin otherwise starts its own worker, and a file that starts ten
 * plugins paid for ten. For tests that do not depend on a fresh worker. Warmed up once, before the first
 * test: no hook of a test then waits for the worker to load, which on a loaded machine can take longer
 * than a short deadline.
 */
export async function startTestPool(): Promise<WorkerPool> {
  const pool = createWorkerPool({ threads: 1, warmUp: true }, await testWorkerFile());
  await pool.ready;
  return pool;
}

/**
 * @param options - plugin options (the `[spec, options]` tuple's second element).
 * @param env - extra environment (MAENIFOLD_* options, double faults); `MAENIFOLD_CLI: ''` hides the CLI.
 * @param graph - notes written (and synced) before the plugin starts, as `DoubleRoot.seed` takes them.
 * @param shared - parts shared with other plugins of the file; without them the plugin starts its own pool.
 */
export async function startHarness(options: Record<string, unknown> = {}, env: Record<string, string> = {}, graph?: Record<string, string>, shared: HarnessShared = {}): Promise<Harness> {
  const double = shared.double ?? (await createDoubleRoot());
  if (graph) await double.seed(graph);
  const stateDir = shared.stateDir ?? (await mkdtemp(join(tmpdir(), 'maenifold-state-')));
  const worktree = shared.worktree ?? '/work/acme-shop';
  const host = createFakeHost();
  const environment: NodeJS.ProcessEnv = { ...process.env, ...double.env, MAENIFOLD_STATE_DIR: stateDir, HOME: stateDir, ...env };
  for (const key of Object.keys(process.env)) {
    // Options from the surrounding shell must not leak into a test.
    if (key.startsWith('MAENIFOLD_') && !(key in double.env) && !(key in env) && key !== 'MAENIFOLD_STATE_DIR') delete environment[key];
  }
  // One worker unless a test asks for more: each worker costs about half a second of CPU to start from
  // the bundle (two or more under tsx), and a hook test needs a real worker, not several (tests about
  // the pool's concurrency pass `pool`).
  // Nor its warm-up, which only makes the first extraction faster and costs each start about 0.4 s of
  // CPU; the pool's own tests and the end-to-end suite start pools that warm up.
  const plugin = await createMaenifoldPlugin(
    { client: host.client, directory: worktree, worktree },
    { pool: { threads: 1, warmUp: false }, ...options },
    environment,
    shared.pool ? { pool: shared.pool } : { workerFile: await testWorkerFile() },
  );
  await plugin.pool?.ready;
  return {
    plugin,
    host,
    double,
    stateDir,
    async close() {
      await plugin.dispose();
      if (!shared.double) await double.cleanup();
      if (!shared.stateDir) await rm(stateDir, { recursive: true, force: true });
    },
  };
}

/** Three notes in which `redis` and `cache-layer` co-occur, so their relation is strong. */
export const STRONG_GRAPH: Record<string, string> = {
  'tech/redis-one': '# One\n\n[[redis]] backs the [[cache-layer]] of [[acme-shop]].',
  'tech/redis-two': '# Two\n\nThe [[cache-layer]] uses [[redis]] streams.',
  'tech/redis-three': '# Three\n\n[[redis]] and the [[cache-layer]] share a pool; see [[api-gateway]].',
  'tech/lonely': '# Lonely\n\n[[lonely-topic]] appears once with [[api-gateway]].',
};
