/**
 * How the continuity run starts a scenario's process. Each scenario starts
 * five plugin instances, each with a worker pool; from the sources, Node
 * compiles a worker's module graph file by file through tsx (about 1.7 s of
 * CPU a worker), which would make a run of eighteen sessions take minutes.
 * So, from the sources, the scenario and the worker are first bundled once
 * per run by the esbuild tsx itself compiles with (the same sources, built
 * the same way, loaded as one file each); where that fails, the scenario
 * runs through tsx. From the compiled package, the compiled files run as
 * they are.
 */
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A way to run `continuity-child`, and what to remove afterwards. */
export interface ScenarioProgram {
  /** The arguments after `node` that run the scenario of `spec`, writing to `result`. */
  argv(spec: string, result: string): string[];
  /** The folder processes start in (where `tsx` and the packages resolve from). */
  cwd: string;
  /** How the scenario runs, for the report. */
  kind: 'bundle' | 'tsx' | 'compiled';
  /** Why it is not a bundle, when bundling was tried and failed. */
  note?: string;
  /** Removes the bundle, if any. */
  dispose(): Promise<void>;
}

const CHILD = 'src/eval/continuity-child.ts';
const WORKER = 'src/workers/extract-worker.ts';

/** The nearest folder at or above `folder` that holds the sources of the scenario, or `null`. */
function sourcesAbove(folder: string): string | null {
  for (let dir = folder; ; dir = dirname(dir)) {
    if (existsSync(join(dir, CHILD))) return dir;
    if (dirname(dir) === dir) return null;
  }
}

/**
 * @param moduleUrl - this module's URL: `.ts` when running from the sources, `.js` when compiled, or a
 *   bundle's URL (a bundle of the eval script under the repository's `node_modules/.cache`).
 */
export async function prepareScenarioProgram(moduleUrl: string = import.meta.url): Promise<ScenarioProgram> {
  const here = fileURLToPath(new URL('.', moduleUrl));
  const compiled = join(here, 'continuity-child.js');
  if (!moduleUrl.endsWith('.ts') && existsSync(compiled)) {
    return { argv: (spec, result) => [compiled, spec, result], cwd: here, kind: 'compiled', dispose: async () => undefined };
  }
  // A bundle of the eval script lies where its builder put it (the tests': the shared node_modules/.cache,
  // possibly below another checkout): the sources are those of the folder the command runs in.
  const repoRoot = moduleUrl.endsWith('.ts') ? sourcesAbove(here) : (sourcesAbove(process.cwd()) ?? sourcesAbove(here));
  if (repoRoot === null) {
    const note = `no scenario beside ${here}, nor sources above ${process.cwd()}: every session fails`;
    return { argv: (spec, result) => [compiled, spec, result], cwd: here, kind: 'compiled', note, dispose: async () => undefined };
  }
  const throughTsx = (note?: string): ScenarioProgram => ({
    argv: (spec, result) => ['--import', 'tsx', join(repoRoot, CHILD), spec, result],
    cwd: repoRoot,
    kind: 'tsx',
    ...(note ? { note } : {}),
    dispose: async () => undefined,
  });
  let outdir: string | null = null;
  try {
    const require = createRequire(join(repoRoot, 'package.json'));
    const esbuild = createRequire(require.resolve('tsx/package.json'))('esbuild') as typeof import('esbuild');
    // Under node_modules, so the packages left outside the bundle and those loaded by name at run time
    // (a tokenizer encoding) resolve from the bundle's place as from the sources.
    const cache = join(repoRoot, 'node_modules', '.cache', 'opencode-maenifold');
    await mkdir(cache, { recursive: true });
    outdir = await mkdtemp(join(cache, 'continuity-'));
    const common = {
      outbase: repoRoot,
      outdir,
      outExtension: { '.js': '.mjs' },
      bundle: true,
      platform: 'node' as const,
      format: 'esm' as const,
      target: `node${process.versions.node}`,
      logLevel: 'silent' as const,
      // CommonJS dependencies call require() for Node's builtins; an ES module has none of its own.
      banner: { js: "import { createRequire as bundleRequire } from 'node:module'; const require = bundleRequire(import.meta.url);" },
    };
    await Promise.all([
      esbuild.build({ ...common, entryPoints: [join(repoRoot, WORKER)] }),
      // piscina finds its own worker by its folder, so it stays outside; the other packages are bundled, each
      // scenario process otherwise loading them file by file (about 0.8 s of CPU a process).
      esbuild.build({ ...common, entryPoints: [join(repoRoot, CHILD)], external: ['piscina'] }),
    ]);
    // The pool looks for `workers/extract-worker.js` two folders above its module: here the child's bundle.
    await mkdir(join(outdir, 'workers'), { recursive: true });
    await copyFile(join(outdir, WORKER.replace(/\.ts$/, '.mjs')), join(outdir, 'workers', 'extract-worker.js'));
    await writeFile(join(outdir, 'package.json'), '{ "type": "module" }\n');
    const bundle = join(outdir, CHILD.replace(/\.ts$/, '.mjs'));
    const folder = outdir;
    return { argv: (spec, result) => [bundle, spec, result], cwd: repoRoot, kind: 'bundle', dispose: () => rm(folder, { recursive: true, force: true }) };
  } catch (error) {
    if (outdir) await rm(outdir, { recursive: true, force: true }).catch(() => undefined);
    return throughTsx(`could not bundle the scenario (${(error as Error)?.message ?? String(error)}); it runs through tsx`);
  }
}
