import { defineConfig } from 'vitest/config';

// The real OpenCode server against a fake model: one file, one server, scenarios in order.
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.test.ts'],
    // Installs the pinned OpenCode and packs the plugin once, for every file.
    globalSetup: ['test/e2e/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 120_000,
    // Installing the pinned OpenCode, packing the plugin and preparing projects on a fresh machine.
    hookTimeout: 300_000,
  },
});
