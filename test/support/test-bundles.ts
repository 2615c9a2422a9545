/**
 * Global setup of the hook tests: the pool's worker, the worker of
 * `npm run profile`, and the fixtures some tests start as processes, each
 * bundled into one JavaScript module, once per run.
 *
 * From the sources, Node starts a worker through a bootstrap that compiles
 * the worker's module graph with tsx, file by file: about 1.7 s of CPU per
 * worker, and a hook test file starts one or more. A fixture process started
 * with `--import tsx` pays about 0.5 s the same way. A bundle is the same
 * sources compiled by the same esbuild, loaded as one file: about 0.5 s for
 * the worker, 0.1 s for a fixture. The pool's own tests and the end-to-end
 * suite still start the worker through the bootstrap, as the sources run it.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of the bundled worker; absent when this setup did not run. */
    workerBundle?: string;
    /** URL of the bundled worker `npm run profile` starts (src/profile/profiled-worker.ts); absent when this setup did not run. */
    profiledWorkerBundle?: string;
    /** Path of each bundled fixture process, by its source's path from the repository root. */
    processBundles?: Record<string, string>;
  }
}

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const WORKER = 'src/workers/extract-worker.ts';
const PROFILED_WORKER = 'src/profile/profiled-worker.ts';

/**
 * Scripts the tests start as processes (see `fixtureArgv` in support/fixture-process.ts): the fixtures, and
 * the scripts of `npm start`, `npm run eval` and the package's command, whose runs each start a pool of
 * their own.
 */
const CLI_SCRIPTS: readonly string[] = ['src/cli/preview.ts', 'src/cli/eval.ts', 'src/cli/bin.ts'];
const PROCESS_FIXTURES: readonly string[] = [
  'test/fixtures/state/lock-holder.ts',
  'test/fixtures/delivery/claim-holder.ts',
  'test/fixtures/delivery/stale-chain-writer.ts',
  'support/submit-thought.ts',
  'test/fixtures/compaction/kept-outputs.ts',
  ...CLI_SCRIPTS,
];

/** The esbuild tsx compiles with, so a bundle is built as tsx would build each file. */
function loadEsbuild(): typeof import('esbuild') {
  const require = createRequire(import.meta.url);
  return createRequire(require.resolve('tsx/package.json'))('esbuild') as typeof import('esbuild');
}

/** Builds the bundles, provides where they are to the tests, and removes them after the run. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Under node_modules, so what a bundle loads by name at run time (cl100k_base, through createRequire)
  // resolves from the bundle's place as it does from the sources.
  const cache = join(repoRoot, 'node_modules/.cache/opencode-maenifold');
  await mkdir(cache, { recursive: true });
  const outdir = await mkdtemp(join(cache, 'bundles-'));
  const output = (entry: string): string => join(outdir, entry.replace(/\.ts$/, '.mjs'));
  const esbuild = loadEsbuild();
  // Code the entries of a build share is written once, as chunks in `chunkFolder`. A module imported only
  // dynamically gets a chunk of its own, loaded when first imported: a fixture that never runs a task
  // inline no longer parses the worker's module graph and the tokenizer's ranks as it starts (about
  // 0.2 s of CPU a process).
  const options = (entries: readonly string[], chunkFolder: string): Parameters<typeof esbuild.context>[0] => ({
    entryPoints: entries.map((entry) => join(repoRoot, entry)),
    outbase: repoRoot,
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    chunkNames: `${chunkFolder}/[name]-[hash]`,
    platform: 'node',
    format: 'esm',
    target: `node${process.versions.node}`,
    logLevel: 'warning',
    // Dependencies that are CommonJS call require() for Node's builtins; an ES module has none of its own.
    banner: { js: "import { createRequire as bundleRequire } from 'node:module'; const require = bundleRequire(import.meta.url);" },
  });
  const contexts = await Promise.all([
    esbuild.context(options([WORKER, PROFILED_WORKER, ...PROCESS_FIXTURES.filter((entry) => !CLI_SCRIPTS.includes(entry))], 'chunks')),
    // A script that starts a pool keeps piscina outside: piscina finds its own worker by __dirname. The
    // other packages are bundled: loading each of their files by name took about 0.2 s of CPU a run.
    // Their chunks lie beside them, so what a chunk finds relative to its own module (the pool's worker,
    // the package's manifest) is where it is from the script's.
    esbuild.context({ ...options(CLI_SCRIPTS, 'src/cli'), external: ['piscina'] }),
  ]);
  // A bundled script that starts a pool looks for the worker where the package keeps it, relative to
  // the pool's module (`resolveWorkerFile`): from `src/cli/preview.mjs`, `workers/extract-worker.js`,
  // an ES module by its folder's package.json. It loads the worker bundle, whose chunks it imports by
  // their place.
  const build = async (): Promise<void> => {
    await Promise.all(contexts.map((context) => context.rebuild()));
    await mkdir(join(outdir, 'workers'), { recursive: true });
    const bundled = `../${WORKER.replace(/\.ts$/, '.mjs')}`;
    await writeFile(join(outdir, 'workers', 'extract-worker.js'), `export * from '${bundled}';\nexport { default } from '${bundled}';\n`);
  };
  await writeFile(join(outdir, 'package.json'), '{ "type": "module" }\n');
  await build();
  // In watch mode the sources may have changed between runs.
  project.onTestsRerun(build);
  project.provide('workerBundle', pathToFileURL(output(WORKER)).href);
  project.provide('profiledWorkerBundle', pathToFileURL(output(PROFILED_WORKER)).href);
  project.provide('processBundles', Object.fromEntries(PROCESS_FIXTURES.map((entry) => [entry, output(entry)])));
  return async () => {
    await Promise.all(contexts.map((context) => context.dispose()));
    await rm(outdir, { recursive: true, force: true });
  };
}
