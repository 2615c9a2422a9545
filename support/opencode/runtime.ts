/**
 * The pieces an end-to-end run needs, installed by the project's own files:
 * the OpenCode binary (pinned in runtime/package.json), the packed plugin, and
 * a template project whose dependencies are installed once per run.
 */
import { execFile } from 'node:child_process';
import { access, cp, mkdir, mkdtemp, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The repository root. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RUNTIME_DIR = fileURLToPath(new URL('./runtime/', import.meta.url));

/** OpenCode's cache (the provider package it installs on first use), kept between runs of one checkout. */
export const OPENCODE_CACHE_DIR = join(RUNTIME_DIR, '.cache', 'xdg');

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

async function npm(args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  await run('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, env, maxBuffer: 16 * 1024 * 1024, timeout: 240_000 });
}

/** The pinned OpenCode version. */
export async function openCodeVersion(): Promise<string> {
  const manifest = JSON.parse(await readFile(join(RUNTIME_DIR, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  return manifest.dependencies['opencode-ai'] as string;
}

/**
 * Path of the OpenCode binary, installing the pinned version first when needed.
 */
export async function ensureOpenCode(): Promise<string> {
  const binary = join(RUNTIME_DIR, 'node_modules', 'opencode-linux-x64', 'bin', 'opencode');
  if (!(await exists(binary))) {
    // --ignore-scripts: the postinstall only runs the binary once and touches the user's home.
    // --omit=optional: of opencode-ai's platform builds, only the one named in the manifest (on a fresh
    // clone the x64-baseline build, never run, made the install take 12 s instead of 4).
    await npm(['install', '--no-package-lock', '--ignore-scripts', '--omit=optional'], RUNTIME_DIR);
  }
  if (!(await exists(binary))) throw new Error(`the OpenCode binary is missing after install: ${binary}`);
  return binary;
}

/** Builds the package and packs it as users get it; returns the tarball's path. */
export async function packPlugin(into: string): Promise<string> {
  await npm(['pack', '--pack-destination', into], REPO_ROOT);
  const tarball = (await readdir(into)).find((name) => name.startsWith('opencode-maenifold-') && name.endsWith('.tgz'));
  if (!tarball) throw new Error('npm pack produced no tarball');
  return join(into, tarball);
}

/**
 * Installs the plugin's runtime dependencies, as its package.json names them, into
 * `template/node_modules`, while the package is still being built and packed.
 */
async function installPluginDependencies(template: string): Promise<void> {
  const manifest = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  await writeFile(join(template, 'package.json'), JSON.stringify({ name: 'e2e-project', private: true, dependencies: manifest.dependencies ?? {} }, null, 2));
  await npm(['install', '--prefer-offline', '--no-package-lock'], template);
}

/**
 * Unpacks the packed plugin where npm puts a package, `template/node_modules/opencode-maenifold`: what
 * each test project links to. Its dependencies are already there, installed from the same manifest, so
 * this is the tree `npm install <tarball>` leaves, but for the command's link in `node_modules/.bin`,
 * which no project runs (the command is tested from the sources). npm took about four seconds to
 * reach that tree, on the path every end-to-end file waits on; tar takes a few milliseconds.
 */
async function installPackedPlugin(template: string, tarball: string): Promise<void> {
  const target = join(template, 'node_modules', 'opencode-maenifold');
  await mkdir(target, { recursive: true });
  // npm packs every file under one `package/` folder.
  await run('tar', ['-xzf', tarball, '-C', target, '--strip-components=1'], { timeout: 60_000 });
}

/**
 * Installs the plugin API package into `dir` (the template's `.opencode`),
 * with its lockfile: {@link linkConfigDir} hands both to every config folder
 * OpenCode reads.
 */
async function installPluginApi(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'e2e-opencode-dir', private: true, type: 'module', dependencies: { '@opencode-ai/plugin': await openCodeVersion() } }, null, 2));
  await npm(['install', '--prefer-offline'], dir);
}

/**
 * Gives an OpenCode config folder (a project's `.opencode`, or the global
 * one under `XDG_CONFIG_HOME`) the template's plugin API install: copies of
 * its `package.json` and `package-lock.json`, and a link to its `node_modules`.
 * OpenCode installs into every writable config folder whose `node_modules` is
 * missing or whose lockfile lacks a dependency of its `package.json`, and
 * loads no plugin until that is done; with these it has nothing to install.
 *
 * @param dir - the config folder; created when missing.
 * @param template - from {@link prepareRuntime}.
 */
export async function linkConfigDir(dir: string, template: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const file of ['package.json', 'package-lock.json']) await cp(join(template, '.opencode', file), join(dir, file));
  await symlink(join(template, '.opencode', 'node_modules'), join(dir, 'node_modules'), 'dir');
}

/**
 * Pool options for a project whose tests are about hooks, not the pool: one worker, no warm-up. Under
 * OpenCode's Bun, each worker of the default pool spends about 2.5 s of CPU warming up when its project's
 * plugin starts, and a second project instance starts a second pool. The default pool is what the main
 * project of opencode.e2e.test.ts runs, warm-up included.
 */
export const LEAN_POOL = Object.freeze({ threads: 1, warmUp: false });

/** Options of {@link createProject}. */
export interface ProjectOptions {
  /** Options of the plugin's `[spec, options]` tuple. */
  pluginOptions: Record<string, unknown>;
  /** Base URL of the fake model, e.g. `http://127.0.0.1:1234/v1`. */
  modelUrl: string;
  /** Context limit the fake model declares (overflow compaction starts near it). */
  contextLimit?: number;
  /** Files to create, relative to the project (rules, sources). */
  files?: Record<string, string>;
  /**
   * OpenCode's snapshot tracking (its undo), on as users have it unless set to false. A project whose tests
   * are about hooks turns it off: before and after each model step OpenCode records the worktree in a Git
   * object store of its own, about 0.3 s of CPU a step on a 2-core machine. @default true
   */
  snapshot?: boolean;
}

/**
 * A project folder the server can open: a git repository with an
 * `opencode.json` that names the packed plugin by path, with options.
 */
export async function createProject(root: string, name: string, template: string, options: ProjectOptions): Promise<string> {
  const dir = join(root, name);
  await mkdir(dir, { recursive: true });
  await symlink(join(template, 'node_modules'), join(dir, 'node_modules'), 'dir');
  await linkConfigDir(join(dir, '.opencode'), template);
  await writeFile(join(dir, 'README.md'), '# Demo\n\nA project about the [[cache-layer]].\n');
  for (const [path, content] of Object.entries(options.files ?? {})) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  await run('git', ['init', '-q'], { cwd: dir });
  const config = {
    $schema: 'https://opencode.ai/config.json',
    model: 'fake/m',
    small_model: 'fake/m',
    autoupdate: false,
    share: 'disabled',
    ...(options.snapshot === false ? { snapshot: false } : {}),
    plugin: [['./node_modules/opencode-maenifold/dist/plugin/maenifold.js', options.pluginOptions]],
    provider: {
      fake: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Fake',
        options: { baseURL: options.modelUrl, apiKey: 'fake-key' },
        models: { m: { name: 'Fake M', tool_call: true, limit: { context: options.contextLimit ?? 16_000, output: 2_000 } } },
      },
    },
  };
  await writeFile(join(dir, 'opencode.json'), `${JSON.stringify(config, null, 2)}\n`);
  return dir;
}

/** A scratch folder for one run; the caller removes it. */
export function scratchDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'maenifold-e2e-'));
}

/**
 * Everything the suite needs before a server starts: the pinned OpenCode
 * binary, and a template project (`<scratch>/template`) with the freshly
 * packed plugin in its `node_modules` and the plugin API package in its
 * `.opencode`. They run at once, the plugin's dependencies installing while
 * the package is built and packed.
 *
 * @param scratch - a scratch folder (from {@link scratchDir}).
 * @param tarball - a packed plugin to install instead of packing this checkout (a benchmark's base).
 */
export async function prepareRuntime(scratch: string, tarball?: string): Promise<{ binary: string; template: string }> {
  const template = join(scratch, 'template');
  const pack = join(scratch, 'pack');
  await mkdir(pack);
  await mkdir(template);
  const [binary] = await Promise.all([
    ensureOpenCode(),
    Promise.all([tarball ?? packPlugin(pack), installPluginDependencies(template)]).then(([packed]) => installPackedPlugin(template, packed)),
    installPluginApi(join(template, '.opencode')),
  ]);
  return { binary, template };
}

/**
 * Polls `probe` every 100 ms until it gives a value.
 *
 * @param probe - answers `undefined` while the awaited state is not there yet.
 * @param timeoutMs - how long to wait before failing.
 * @param what - named in the error on timeout.
 */
export async function until<T>(probe: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
