/**
 * `npm run build`'s second step: the plugin's entry as OpenCode loads it,
 * bundled. OpenCode imports the plugin while it starts, on its only thread;
 * loading some 200 modules one by one (the plugin's own and its
 * dependencies') took a few hundred milliseconds of the user's first prompt,
 * where one bundle loads in a fraction of that (docs/benchmarks.md, "The
 * first prompt of a new server"). What is loaded only later (the inline
 * fallback's tasks, the tool helper's fallback) is split into chunks loaded
 * when asked for.
 *
 * The bundle lives at `dist/src/main/bundle/`, two folders below `dist/src`
 * as the pool's module is, so the worker it starts (`dist/src/workers/`, not
 * bundled: it loads off the host's thread) is found at the same relative
 * path. `dist/plugin/maenifold.js`, the entry every install names, re-exports
 * it. Left out of the bundle: piscina, which starts its own worker file by
 * path, and @opencode-ai/plugin, the host's own (an optional peer).
 */
import { rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../../', import.meta.url));
const entry = `${root}dist/plugin/maenifold.js`;
const outdir = `${root}dist/src/main/bundle`;

await rm(outdir, { recursive: true, force: true });
await build({
  entryPoints: { maenifold: entry },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['piscina', '@opencode-ai/plugin', '@opencode-ai/plugin/*'],
  // The CommonJS dependencies (picomatch) call `require`, which an ES module has not by itself.
  banner: { js: "import { createRequire as bundleRequire } from 'node:module'; const require = bundleRequire(import.meta.url);" },
  logLevel: 'warning',
});
await writeFile(entry, "export { default } from '../src/main/bundle/maenifold.js';\n");
await rm(`${entry}.map`, { force: true });
