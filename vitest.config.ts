import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import TimingsSequencer from './test/support/timings-sequencer.js';

// The unit tests open no TLS connection, and they start hundreds of Node processes (the maenifold double,
// fixtures, CLIs under test). Where the environment names extra CA certificates, every one of those parsed
// the bundle as it started: about 0.1 s of CPU apiece on a 2-core machine, more than the double's own run.
// The end-to-end suite, which installs and runs OpenCode, keeps them.
delete process.env['NODE_EXTRA_CA_CERTS'];

/**
 * The unit tests: every test file but the end-to-end suite's (vitest.e2e.config.ts, run on its own
 * afterwards: it drives a real server). The files a worker runs share one module graph instead of loading
 * gpt-tokenizer, the cue tables, the unified stack and the plugin again for each file (about half a second
 * of CPU per file). The module state that outlives a file is the state one OpenCode process already shares
 * between the plugin instances of its projects (the lock table, the outbox's claims, caches keyed by
 * content), and every file stops the plugins, pools and processes it starts, but for the one warmed pool
 * the hook tests share (test/support/file-pool.ts), which lives until vitest ends the worker. What a file
 * changes in the process's globals (fake clocks, stubbed variables and globals, spies) is put back after
 * its tests by test/support/restore-globals.ts. The global setup bundles the worker and the scripts tests
 * start as processes, once for the run (test/support/test-bundles.ts).
 */
export default defineConfig({
  test: {
    // Pool tests start real worker threads; give them room on a 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // One file more than there are cores: a file spends part of its time waiting on the processes,
    // worker threads and timers it started, and with one file per core two cores were busy about 1.5
    // of the time (72.5-73 s for the suite, against 60-64 s with three files at once and 61 s with four).
    maxWorkers: availableParallelism() + 1,
    isolate: false,
    setupFiles: ['test/support/restore-globals.ts'],
    include: ['test/**/*.test.ts'],
    exclude: ['test/e2e/**', '**/node_modules/**'],
    globalSetup: ['test/support/test-bundles.ts'],
    // Longest files first, by their recorded times: a fresh clone has no durations of its own.
    sequence: { sequencer: TimingsSequencer },
  },
});
