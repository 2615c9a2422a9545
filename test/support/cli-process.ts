/**
 * What the tests of the command-line scripts share: where the repository is, how a run started from a
 * folder with no node_modules still loads tsx, the sample session export, and what a finished run gives.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The repository's root folder. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** tsx's loader by URL: some runs start in a folder with no node_modules to resolve `tsx` from. */
export const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** A small real-shaped session export the scripts read. */
export const EXPORT_SAMPLE = join(REPO_ROOT, 'test', 'fixtures', 'export-sample.json');

/** A finished run of a script: its exit code and what it printed. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}
