/**
 * Runs around every test file: the files of a project share one process and one module graph, so what a
 * file changes in the process's globals is put back when its tests are done, whatever they did. Files
 * restore these themselves as well; this is the net under them.
 */
import { afterAll, vi } from 'vitest';

afterAll(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
