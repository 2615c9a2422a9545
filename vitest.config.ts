import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Tests of pure functions, of the generator, the scorer and file I/O, and of the hook thread's parts
 * that start no plugin, pool, process or lock and set no fake clock: no module state that one file
 * could leave for the next, so they share one module graph instead of loading gpt-tokenizer, the cue
 * tables and the unified stack again for every file.
 */
const PURE = [
  'test/core/**/*.test.ts',
  'test/eval/**/*.test.ts',
  'test/synth/**/*.test.ts',
  'test/io/**/*.test.ts',
  'test/workers/**/*.test.ts',
  'test/plugin/**/*.test.ts',
  ...['analysis-cache', 'compaction-note', 'placed-analyses', 'section-assembly', 'working-set-tracker'].map((name) => `test/main/compaction/${name}.test.ts`),
  ...['frame-state', 'frame-tree'].map((name) => `test/main/frames/${name}.test.ts`),
  'test/main/graph/graph-context.test.ts',
  'test/main/memory/cli/cli-answers.test.ts',
  'test/main/rules/rules.test.ts',
  ...['option-issues', 'option-kinds', 'plugin-options'].map((name) => `test/main/shared/${name}.test.ts`),
  'test/main/session/**/*.test.ts',
];

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
