import { defineConfig } from 'vitest/config';

/**
 * Tests of pure functions and of the generator, scorer and file I/O: no worker pool, no plugin, no
 * module state that one file could leave for the next, so they share one module graph instead of
 * loading gpt-tokenizer, the cue tables and the unified stack again for every file.
 */
const PURE = ['test/core/**/*.test.ts', 'test/eval/**/*.test.ts', 'test/synth/**/*.test.ts', 'test/io/**/*.test.ts', 'test/workers/**/*.test.ts', 'test/plugin/**/*.test.ts'];

export default defineConfig({
  test: {
    // Pool tests start real worker threads; give them room on a 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: 'pure', include: PURE, isolate: false } },
      // Everything that starts the plugin, a pool, a process or a lock keeps a fresh module graph per file.
      // The end-to-end suite runs on its own afterwards (vitest.e2e.config.ts): it drives a real server.
      { extends: true, test: { name: 'hooks', include: ['test/**/*.test.ts'], exclude: [...PURE, 'test/e2e/**', '**/node_modules/**'] } },
    ],
  },
});
