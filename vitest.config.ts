import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Which project a test file runs in follows from where it lies and how it is named, never from a list of
 * files kept by hand:
 * - `pure`: every test under test/core, test/eval, test/synth, test/io, test/workers and test/plugin (the
 *   stages, the generator and the scorer, file I/O, the worker tasks, the entry's shape), and every file
 *   named `*.pure.test.ts` elsewhere: a part of the hook thread tested alone, which starts no plugin, pool,
 *   lock or process. These need nothing built before they run.
 * - `hooks`: every other test file. These start plugins, pools, locks and processes, some from the bundles
 *   the project's global setup builds once for the run.
 *
 * In both, the files a worker runs share one module graph instead of loading gpt-tokenizer, the cue tables,
 * the unified stack and the plugin again for each file (about half a second of CPU per file). The module
 * state that outlives a file is the state one OpenCode process already shares between the plugin instances
 * of its projects (the lock table, the outbox's claims, caches keyed by content), and every file stops the
 * plugins, pools and processes it starts. What a file changes in the process's globals (fake clocks,
 * stubbed variables and globals, spies) is put back after its tests by test/support/restore-globals.ts.
 */
const PURE = ['test/{core,eval,synth,io,workers,plugin}/**/*.test.ts', 'test/**/*.pure.test.ts'];

// The unit tests open no TLS connection, and they start hundreds of Node processes (the maenifold double,
// fixtures, CLIs under test). Where the environment names extra CA certificates, every one of those parsed
// the bundle as it started: about 0.1 s of CPU apiece on a 2-core machine, more than the double's own run.
// The end-to-end suite, which installs and runs OpenCode, keeps them.
delete process.env['NODE_EXTRA_CA_CERTS'];

export default defineConfig({
  test: {
    // Pool tests start real worker threads; give them room on a 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // One file per core, not vitest's cores − 1 (one file at a time on two cores): most of a plugin
    // test's time is spent in its worker threads and child processes, not in the file's own process.
    maxWorkers: availableParallelism(),
    isolate: false,
    setupFiles: ['test/support/restore-globals.ts'],
    projects: [
      { extends: true, test: { name: 'pure', include: PURE } },
      // The end-to-end suite runs on its own afterwards (vitest.e2e.config.ts): it drives a real server.
      // Its plugins, pools and fixture processes start from bundles built once for the run (test/support/test-bundles.ts).
      {
        extends: true,
        test: { name: 'hooks', include: ['test/**/*.test.ts'], exclude: [...PURE, 'test/e2e/**', '**/node_modules/**'], globalSetup: ['test/support/test-bundles.ts'] },
      },
    ],
  },
});
