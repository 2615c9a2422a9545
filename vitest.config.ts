import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The end-to-end suite runs on its own afterwards (vitest.e2e.config.ts): it drives a real server.
    exclude: ['test/e2e/**', '**/node_modules/**'],
    // Pool tests start real worker threads; give them room on a 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
