import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Which project a test file runs in follows from where it lies and how it is named, never from a list of
 * files kept by hand:
 * - `pure`: every test under test/core, test/eval, test/synth, test/io, test/workers and test/plugin (the
 *   stages, the generator and the scorer, file I/O, the worker tasks, the entry's shape), and every file
 *   named `*.pure.test.ts` elsewhere: a part of the hook thread tested alone, which starts no plugin, pool or
 *   lock, leaves no process running, blocks no read and sets no fake clock. These leave no module state that one file could
 *   leave for the next, so they share one module graph instead of loading gpt-tokenizer, the cue tables and
 *   the unified stack again for every file.
 * - `hooks`: every other test file, each in a module graph of its own.
 * A file named `.pure` that starts a plugin would share its state with the next file: name a file so only
 * when it meets the rule above.
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
    projects: [
      { extends: true, test: { name: 'pure', include: PURE, isolate: false } },
      // Everything that starts the plugin, a pool, a process or a lock keeps a fresh module graph per file.
      // The end-to-end suite runs on its own afterwards (vitest.e2e.config.ts): it drives a real server.
      // Its plugins, pools and fixture processes start from bundles built once for the run (test/support/test-bundles.ts).
      {
        extends: true,
        test: { name: 'hooks', include: ['test/**/*.test.ts'], exclude: [...PURE, 'test/e2e/**', '**/node_modules/**'], globalSetup: ['test/support/test-bundles.ts'] },
      },
    ],
  },
});
