/**
 * How a test starts a TypeScript fixture as a Node process.
 */
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The arguments after `node` that run `file`: its bundle when the global setup built one
 * (`test-bundles.ts`, about 0.1 s of CPU to start), else the source through tsx (about 0.5 s).
 *
 * @param file - the fixture's absolute path.
 */
export function fixtureArgv(file: string): string[] {
  let bundle: string | undefined;
  try {
    bundle = inject('processBundles')?.[relative(repoRoot, file)];
  } catch {
    // Not inside a test file (a script that imports the test support, such as `npm run soak`).
  }
  return bundle ? [bundle] : ['--import', 'tsx', file];
}
