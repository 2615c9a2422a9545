/**
 * The store and project a command works on, resolved as the plugin resolves
 * them (create-plugin.ts): the same options and `MAENIFOLD_*` variables, the
 * maenifold CLI when found (or asked for), else the built-in file store under
 * `$MAENIFOLD_ROOT`, and the project of the folder's worktree. The tasks run
 * inline: a command reads one project's memory and exits.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { locateCli } from '../main/memory/cli/cli-locator.js';
import { createMaenifoldClient } from '../main/memory/cli/maenifold-client.js';
import { createFileStore } from '../main/memory/files/file-store.js';
import { countingWrites } from '../main/memory/counting-writes.js';
import { writtenMarkFile } from '../main/memory/written-mark.js';
import type { MemoryPort } from '../main/memory/memory-port.js';
import { createChainStore } from '../main/memory/delivery/chain-store.js';
import { resolvePluginOptions, type PluginOptions } from '../main/options/plugin-options.js';
import { describeOptionIssue } from '../main/options/option-issues.js';
import { lazyInlineRunner } from '../main/pool/inline-runner.js';
import type { TaskRunner } from '../main/pool/task-runner.js';
import type { ChainLookup } from '../main/graph/project-memory.js';
import { createLogger } from '../main/shared/logger.js';
import { resolveProject, type Project } from '../main/shared/project.js';

/** What a memory command was asked for. */
export interface StoreRequest {
  /** A folder of the project. */
  dir: string;
  /** `--store`: overrides `MAENIFOLD_STORE`. */
  store?: 'files' | 'maenifold';
  /** `--state-dir`: overrides `MAENIFOLD_STATE_DIR`. */
  stateDir?: string;
  env: NodeJS.ProcessEnv;
  /** Told each option value the plugin would log as wrong. */
  onIssue?: (line: string) => void;
}

/** An opened store. */
export interface OpenedStore {
  memory: MemoryPort;
  /** `files` or the CLI's path, for messages. */
  describe: string;
  project: Project;
  options: PluginOptions;
  chains: ChainLookup;
  runner: TaskRunner;
  close(): Promise<void>;
}

/**
 * The folder OpenCode names the project by: the nearest folder up from `dir` that holds `.git`, else `dir`.
 *
 * @param dir - a folder of the project.
 */
export function worktreeOf(dir: string): string {
  for (let folder = resolve(dir); ; folder = dirname(folder)) {
    if (existsSync(join(folder, '.git'))) return folder;
    if (dirname(folder) === folder) return resolve(dir);
  }
}

/**
 * @param request - see {@link StoreRequest}.
 * @throws Error with a one-line message when the maenifold CLI was asked for and is missing.
 */
export function openStore(request: StoreRequest): OpenedStore {
  const env: NodeJS.ProcessEnv = { ...request.env, ...(request.store ? { MAENIFOLD_STORE: request.store } : {}), ...(request.stateDir ? { MAENIFOLD_STATE_DIR: resolve(request.stateDir) } : {}) };
  // A bad value is replaced by its default, as the plugin replaces it: the command reads what the plugin would.
  const { options, issues } = resolvePluginOptions({}, env);
  for (const issue of issues) request.onIssue?.(describeOptionIssue(issue));
  const logger = createLogger(undefined);
  const runner = lazyInlineRunner();
  const worktree = worktreeOf(request.dir);
  const project = resolveProject(options.project, worktree);
  const location = locateCli(options.cli, env, worktree);
  const chains = createChainStore(options.stateDir, { logger });
  // A forget is a write: the block a session start saved before it no longer answers unread.
  const mark = writtenMarkFile(options.stateDir);
  if (options.store === 'files' || (options.store === 'auto' && !location.found)) {
    const files = createFileStore({ root: env['MAENIFOLD_ROOT'] || join(env['HOME'] || homedir(), 'maenifold'), stateDir: options.stateDir, runner, logger, index: { watch: false } });
    return { memory: countingWrites(files, mark), describe: `the file store under ${files.memoryDir}`, project, options, chains, runner, close: () => files.close() };
  }
  if (!location.found) throw new Error(`the store is maenifold and its CLI was not found (looked at ${location.tried.length} places); set MAENIFOLD_CLI to its path`);
  return { memory: countingWrites(createMaenifoldClient(location, env), mark), describe: `maenifold CLI ${location.path}`, project, options, chains, runner, close: async () => undefined };
}
