/**
 * Finds the maenifold CLI: an explicit path, then `MAENIFOLD_CLI`, then
 * `maenifold` on PATH, then `~/maenifold/bin/maenifold` (where the
 * maenifold installer puts it).
 */
import { accessSync, constants, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

/** Where the CLI was found, or why it was not. */
export type CliLocation = { found: true; path: string; source: 'option' | 'MAENIFOLD_CLI' | 'PATH' | 'home' } | { found: false; tried: string[] };

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * @param explicit - the `cli` option ('' when not set).
 * @param env - the environment (PATH, HOME, MAENIFOLD_CLI).
 * @param cwd - base for a relative explicit path.
 */
export function locateCli(explicit: string, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): CliLocation {
  const tried: string[] = [];
  const candidates: { path: string; source: 'option' | 'MAENIFOLD_CLI' | 'PATH' | 'home' }[] = [];
  if (explicit) candidates.push({ path: isAbsolute(explicit) ? explicit : resolve(cwd, explicit), source: 'option' });
  const fromEnv = env['MAENIFOLD_CLI'];
  if (fromEnv) candidates.push({ path: isAbsolute(fromEnv) ? fromEnv : resolve(cwd, fromEnv), source: 'MAENIFOLD_CLI' });
  for (const dir of (env['PATH'] ?? '').split(delimiter)) {
    if (dir) candidates.push({ path: join(dir, 'maenifold'), source: 'PATH' });
  }
  candidates.push({ path: join(env['HOME'] || homedir(), 'maenifold', 'bin', 'maenifold'), source: 'home' });
  for (const candidate of candidates) {
    if (isExecutableFile(candidate.path)) return { found: true, ...candidate };
    tried.push(candidate.path);
  }
  return { found: false, tried };
}
