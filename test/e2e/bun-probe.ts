/**
 * Run under OpenCode's own Bun (`BUN_BE_BUN=1 opencode run bun-probe.ts <package dir> <double cli>`):
 * the packed plugin's worker pool and CLI client on the exact runtime that
 * loads plugins. Prints one JSON line with what it saw.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [packageDir, doubleCli] = process.argv.slice(2);
if (!packageDir || !doubleCli) {
  process.stderr.write('usage: bun-probe.ts <package dir> <double cli>\n');
  process.exit(2);
}
// The shipped JavaScript, typed by the sources it was built from.
const load = <T>(path: string): Promise<T> => import(pathToFileURL(join(packageDir, 'dist', 'src', path)).href) as Promise<T>;

const { createWorkerPool } = await load<typeof import('../../src/main/pool/worker-pool.js')>('main/pool/worker-pool.js');
const { createExtractionEngine } = await load<typeof import('../../src/main/compaction/extraction-engine.js')>('main/compaction/extraction-engine.js');
const { createMaenifoldClient } = await load<typeof import('../../src/main/memory/cli/maenifold-client.js')>('main/memory/cli/maenifold-client.js');
const { locateCli } = await load<typeof import('../../src/main/memory/cli/cli-locator.js')>('main/memory/cli/cli-locator.js');

// Two workers, one of which never runs a task, and no warm-up: how the default pool warms up under Bun
// is what the main project of opencode.e2e.test.ts runs (about 2.5 s of CPU a worker), and destroy() is
// what this probe is about.
const pool = createWorkerPool({ threads: 2, warmUp: false });
const ready = await pool.ready;
const engine = createExtractionEngine(pool);
const extracted = await engine.extract('## Plan\nWe decided to use [[Redis]] for the [[cache layer]] because every node shares it.');
const destroyStart = performance.now();
await pool.destroy();
const destroyMs = performance.now() - destroyStart;

const env = { ...process.env };
const client = createMaenifoldClient(locateCli(doubleCli, env), env);
const listed = await client.listNotes('', { timeoutMs: 10_000 });
const hangStart = performance.now();
const hung = createMaenifoldClient(locateCli(doubleCli, env), { ...env, MAENIFOLD_DOUBLE_FAULT: 'hang' }).listNotes('', { timeoutMs: 500 });
const hang = await hung;
const hangMs = performance.now() - hangStart;

process.stdout.write(
  `${JSON.stringify({
    runtime: typeof (globalThis as { Bun?: unknown }).Bun === 'object' ? 'bun' : 'node',
    poolReady: ready.ok,
    concepts: extracted.ok ? extracted.value.concepts.map((concept) => concept.name) : null,
    destroyMs,
    listOk: listed.ok,
    hangCode: hang.ok ? null : hang.error.code,
    hangMs,
  })}\n`,
);
