import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Pool tests start real worker threads; give them room on a 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
