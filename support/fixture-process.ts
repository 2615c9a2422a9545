/**
 * How a test starts a TypeScript fixture as a Node process.
 */
import { execFile } from 'node:child_process';
import { relative } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

const repoRoot = fileURLToPath(new URL('../', import.meta.url));

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

/** How a command-line run ended: its exit code (−1 when it did not exit by itself) and its output. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a TypeScript command-line program as a Node process, as {@link fixtureArgv} starts it.
 *
 * @param file - the program's absolute path.
 * @param args - its arguments.
 */
export async function runCliFixture(file: string, args: string[]): Promise<CliRun> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [...fixtureArgv(file), ...args], { timeout: 120_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof failed.code === 'number' ? failed.code : -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}
