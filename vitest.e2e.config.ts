import { defineConfig } from 'vitest/config';
import TimingsSequencer from './test/support/timings-sequencer.js';

// The real OpenCode server against a fake model: one server per file, scenarios in order.
// Files share only the prepared runtime and OpenCode's cache folder (each has its own
// scratch folder, ports, fake model and double), so two run at once: mostly they wait
// on their servers.
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.test.ts'],
    // Installs the pinned OpenCode and packs the plugin once, for every file.
    globalSetup: ['test/e2e/global-setup.ts'],
    maxWorkers: 2,
    // Longest files first, by their recorded times: a fresh clone has no durations of its own.
    sequence: { sequencer: TimingsSequencer },
    testTimeout: 120_000,
    // A file's server start and projects on a slow machine (the installs are globalSetup's).
    hookTimeout: 300_000,
  },
});
