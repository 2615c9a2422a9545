/**
 * `npm run bench [-- --json] [--quick] [--store] [--runtime node|bun|both] [--plot DIR]`: the extraction
 * engine over 100 KB, 1 MB and 10 MB synthetic sessions, and the file store's index over a
 * 10,000-file memory folder (`--store`: only that), under Node, under the Bun of the pinned
 * OpenCode binary, or both (the default: Node first, then Bun, then the 10 MB figures side by
 * side). Prints tables (or one JSON object, with a `runtime` field and, for both, the Bun
 * report under `bun`) and exits non-zero when a pooled p50 exceeds the 5 s a large session's
 * compaction may take or a store figure exceeds its budget, in either runtime. Tables fit 120 columns; a
 * progress line on stderr (when it is a terminal) names the step and the time spent.
 *
 * The whole compacting hook is measured through the 1.x host shape at every size and through the 2.x shape
 * too at 10 MB, the size its targets are stated at; the report names the shape of each figure.
 * `--hook` measures only the whole compacting hook on 10 MB, through the 1.x and the 2.x host shape
 * (`--runs N` plugins each, 3 by default, 1 with `--quick`).
 * `--plot DIR` measures only the hook thread's delay over time through one 10 MB extraction,
 * pooled and inline, under the runtimes asked for, and draws it into DIR/loop-delay-10mb.svg.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createWorkerPool } from '../src/main/pool/worker-pool.js';
import { createInlineRunner } from '../src/main/pool/inline-runner.js';
import { generateSession } from '../src/synth/session-generator.js';
import { benchPipeline, benchSessions, type Iterations, type SessionsFigures, type SizeFigures } from './pipeline.bench.js';
import { benchStages } from './stages.bench.js';
import { benchCompactingHook, type HookFigures, type HostShape } from './compacting-hook.bench.js';
import { benchLoad, type LoadFigures } from './load.bench.js';
import { invocationDir, parseCliArgs, positiveInteger, reportFailure, UsageError } from '../src/cli/run-cli.js';
import { benchOutput, figuresTable, sideBySideTable, tasksTable, type BenchOutput } from './format.js';
import { delayChartSvg, type DelayPanel } from './delay-chart.js';
import { measureTimelines, type RuntimeTimelines } from './delay-timelines.js';
import { benchFileStore, STORE_BUDGETS, type StoreFigures } from './file-store.bench.js';
import { benchUnderBun, currentRuntime, onBun, scriptCommand, sideBySide, type RuntimeChoice } from './runtimes.js';

const BUDGET_MS = 5_000;

/** The pool's own footprint at one size, measured in a process of its own (bench/pool-footprint.ts). */
async function poolFootprint(bytes: number, runs: number): Promise<{ workers_peak_rss_mb: number; pool_process_peak_rss_mb: number }> {
  const file = fileURLToPath(new URL('./pool-footprint.ts', import.meta.url));
  const child = scriptCommand(file, [String(bytes), String(runs)]);
  const { stdout } = await promisify(execFile)(child.command, child.args, { timeout: 300_000 });
  const figures = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { peak_rss_mb: number; workers_peak_rss_mb: number };
  return { workers_peak_rss_mb: figures.workers_peak_rss_mb, pool_process_peak_rss_mb: figures.peak_rss_mb };
}
const SIZES: ReadonlyArray<{ label: string; bytes: number; full: Iterations; quick: Iterations }> = [
  { label: '100KB', bytes: 100 * 1024, full: { pool: 60, inline: 30, naive: 10, incremental: 30 }, quick: { pool: 10, inline: 5, naive: 2, incremental: 5 } },
  { label: '1MB', bytes: 1024 ** 2, full: { pool: 25, inline: 10, naive: 3, incremental: 20 }, quick: { pool: 5, inline: 2, naive: 1, incremental: 5 } },
  { label: '10MB', bytes: 10 * 1024 ** 2, full: { pool: 10, inline: 3, naive: 1, incremental: 10 }, quick: { pool: 3, inline: 1, naive: 0, incremental: 3 } },
];

const PLOT_BYTES = 10 * 1024 ** 2;

/**
 * The size whose pooled extraction is measured over several generated sessions too: the first turn's target is
 * stated there, and sessions of one size differ in languages, tool output and prose, and so in their figure.
 */
const SESSIONS_BYTES = 100 * 1024;
/** The generator's seeds of those sessions; 7 is the session every size is measured on. */
const SESSION_SEEDS = [1, 2, 3, 4, 5, 6, 7, 8] as const;

/** The size whose compacting hook is measured through both host shapes: the one the hook's targets are stated at. */
const SHAPES_BYTES = 10 * 1024 ** 2;

/** The 10 MB timelines under the runtimes asked for, drawn into `dir`; returns the chart's path. */
async function plot(dir: string, runtime: RuntimeChoice, out: BenchOutput): Promise<string> {
  const measured: RuntimeTimelines[] = [];
  if (runtime !== 'bun' || onBun()) measured.push(await measureTimelines(PLOT_BYTES, (text) => out.step(text)));
  if (runtime !== 'node' && !onBun()) {
    out.step("timelines under OpenCode's Bun");
    const bun = await benchUnderBun(['--timelines']);
    if (bun.code !== 0) throw new Error(`the run under Bun failed (exit ${bun.code})`);
    measured.push(JSON.parse(bun.stdout.trim().split('\n').at(-1) ?? '{}') as RuntimeTimelines);
  }
  const panels: DelayPanel[] = measured.map((figures) => ({
    title: `${figures.runtime}: one extraction of a 10 MB session`,
    series: [
      { name: 'worker pool', timeline: figures.pool },
      { name: 'inline (hook thread)', timeline: figures.inline },
    ],
  }));
  await mkdir(dir, { recursive: true });
  const file = join(dir, 'loop-delay-10mb.svg');
  await writeFile(file, delayChartSvg("How late the host thread's 1 ms timer fired during a 10 MB compaction", panels));
  return file;
}

const USAGE = `Usage: npm run bench [-- --json] [--quick] [--store] [--hook [--runs N]] [--runtime node|bun|both] [--plot DIR]

Measures the extraction engine over 100 KB, 1 MB and 10 MB synthetic sessions, the whole compacting
hook through both host shapes, and the file store over 10,000 notes, under Node and OpenCode's Bun.
Exits 1 when a figure exceeds its budget. See docs/benchmarks.md.

  --json              print one JSON object instead of tables
  --quick             fewer runs of each figure (about 5 minutes)
  --store             only the file store
  --hook              only the whole compacting hook at 10 MB (--runs N plugins per host shape)
  --runtime R         node, bun or both (default both)
  --plot DIR          only the host thread's delay through one 10 MB extraction, drawn into DIR
  --help              show this text`;

async function main(argv: string[]): Promise<number> {
  const values = parseCliArgs(
    argv,
    {
      json: { type: 'boolean', default: false },
      quick: { type: 'boolean', default: false },
      store: { type: 'boolean', default: false },
      hook: { type: 'boolean', default: false },
      runs: { type: 'string' },
      runtime: { type: 'string', default: 'both' },
      plot: { type: 'string' },
      // The run under Bun for --plot: its timelines as one JSON line.
      timelines: { type: 'boolean', default: false },
    },
    USAGE,
  );
  if (!values) return 0;
  const runtime = values.runtime as RuntimeChoice;
  if (!['node', 'bun', 'both'].includes(runtime)) throw new UsageError(`--runtime must be node, bun or both (got "${values.runtime}")`);
  if (values.runs !== undefined) positiveInteger('runs', values.runs);
  if (values.timelines) {
    process.stdout.write(`${JSON.stringify(await measureTimelines(PLOT_BYTES))}\n`);
    return 0;
  }
  if (values.plot !== undefined) {
    const out = benchOutput(runtime === 'both' ? 3 : 2);
    try {
      const file = await plot(resolve(invocationDir(), values.plot), runtime, out);
      out.done();
      process.stderr.write(`wrote ${file}\n`);
    } finally {
      out.done();
    }
    return 0;
  }
  const passed = [...(values.json ? ['--json'] : []), ...(values.quick ? ['--quick'] : []), ...(values.store ? ['--store'] : []), ...(values.hook ? ['--hook'] : []), ...(values.runs ? ['--runs', values.runs] : [])];
  // Asked for Bun from Node: the whole run happens in OpenCode's Bun.
  if (runtime === 'bun' && !onBun()) {
    const bun = await benchUnderBun(passed);
    process.stdout.write(bun.stdout);
    return bun.code;
  }
  if (values.hook) return await measureHook(runtime, passed, Number(values.runs ?? (values.quick ? 1 : 3)), values.json ?? false);
  // Progress on stderr when it is a terminal; stdout carries only the tables or the JSON object.
  const out = benchOutput(values.store ? 1 : 5 + SIZES.length * 2 + (runtime === 'both' ? 1 : 0));
  const print = (text: string): void => {
    if (!values.json) out.print(text);
  };
  try {
    return await measureAll(values, runtime, passed, out, print);
  } finally {
    out.done();
  }
}

/**
 * `--hook`: only the whole compacting hook on the 10 MB session, through each host shape (1.x's hooks
 * over the fake host, 2.x's `setup` in the contract host), under the runtimes asked for.
 */
async function measureHook(runtime: RuntimeChoice, passed: string[], runs: number, json: boolean): Promise<number> {
  const out = benchOutput(runtime === 'both' ? 3 : 2);
  const session = generateSession({ seed: 7, targetBytes: 10 * 1024 ** 2 });
  const shapes: Record<string, HookFigures> = {};
  try {
    for (const shape of ['v1', 'v2'] as const) {
      out.step(`compacting hook on 10MB through the ${shape} host shape`);
      shapes[shape] = await benchCompactingHook(session, runs, shape);
    }
    const report: Record<string, unknown> = { runtime: currentRuntime(), size: '10MB', runs, host_shapes: shapes };
    if (!json) out.print(sideBySideTable(`compacting hook, 10MB, by host shape (${currentRuntime()})`, shapes));
    if (runtime === 'both') {
      out.step("the same under OpenCode's Bun");
      const bun = await benchUnderBun([...passed.filter((arg) => arg !== '--json'), '--json']);
      const bunReport = JSON.parse(bun.stdout.trim().split('\n').at(-1) ?? '{}') as { runtime?: string; host_shapes?: Record<string, HookFigures> };
      report['bun'] = bunReport;
      if (!json) out.print(sideBySideTable(`compacting hook, 10MB, by host shape (${bunReport.runtime ?? 'bun'})`, bunReport.host_shapes ?? {}));
      if (bun.code !== 0) return 1;
    }
    if (json) process.stdout.write(`${JSON.stringify(report)}\n`);
    return 0;
  } finally {
    out.done();
  }
}

async function measureAll(
  values: { json?: boolean; quick?: boolean; store?: boolean },
  runtime: RuntimeChoice,
  passed: string[],
  out: BenchOutput,
  print: (text: string) => void,
): Promise<number> {
  const quick = values.quick ?? false;
  const warn = (text: string): void => void process.stderr.write(`${text}\n`);
  const pool = createWorkerPool();
  const inline = await createInlineRunner();
  let store: StoreFigures | null = null;
  let shapes: Record<HostShape, HookFigures> | null = null;
  const sizes: Record<string, SizeFigures & Partial<HookFigures> & Partial<SessionsFigures> & { workers_peak_rss_mb?: number; pool_process_peak_rss_mb?: number }> = {};
  try {
    const ready = await pool.ready;
    if (!ready.ok) throw new Error(`pool did not start: ${ready.error.message}`);
    out.step(`file store over 10,000 memory files (${pool.options.threads} worker threads)`);
    const measured = await benchFileStore(pool, quick);
    store = measured.figures;
    print(tasksTable('file store', measured.rows));
    print(figuresTable('file store figure', store));
    if (values.store) return reportStore(store, values.json ?? false, warn);
    out.step('each stage alone, inline, over 1 MB');
    print(tasksTable('stage', await benchStages(quick)));
    for (const size of SIZES) {
      const session = generateSession({ seed: 7, targetBytes: size.bytes });
      out.step(`extraction on ${size.label}`);
      const { figures, rows } = await benchPipeline(size.label, session, pool, inline, quick ? size.quick : size.full);
      print(tasksTable(`extraction, ${size.label}`, rows));
      let sessions: SessionsFigures | null = null;
      if (size.bytes === SESSIONS_BYTES) {
        out.step(`extraction on ${SESSION_SEEDS.length} sessions of ${size.label}`);
        sessions = await benchSessions(SESSION_SEEDS, (seed) => generateSession({ seed, targetBytes: size.bytes }), pool, quick ? 2 : 10);
      }
      out.step(`compacting hook on ${size.label} through the v1 host shape`);
      const hook = await benchCompactingHook(session, quick ? 1 : 3, 'v1');
      if (size.bytes === SHAPES_BYTES) {
        // The targets are stated at 10 MB: there the hook runs through the 2.x adapter too, the same handlers behind its calls.
        out.step(`compacting hook on ${size.label} through the v2 host shape`);
        shapes = { v1: hook, v2: await benchCompactingHook(session, quick ? 1 : 3, 'v2') };
      }
      sizes[size.label] = { ...figures, ...(sessions ?? {}), ...hook, ...(await poolFootprint(size.bytes, quick ? 2 : 5)) };
    }
  } finally {
    await pool.destroy();
  }
  const sessions = quick ? 10 : 50;
  out.step(`${sessions} sessions of 1 MB compacting at once`);
  const load: LoadFigures = await benchLoad(sessions, 1024 ** 2);
  print(figuresTable(`load, ${sessions} × 1 MB`, load));
  // The compacting hook's figures under `sizes` are the 1.x shape's at every size; `host_shapes` has both at 10 MB.
  const report: Record<string, unknown> = { runtime: currentRuntime(), sizes, hook_host_shape: 'v1', host_shapes: shapes, load, budget_ms: BUDGET_MS, store, store_budgets: STORE_BUDGETS };
  print(sideBySideTable(`figure (${currentRuntime()})`, sizes));
  if (shapes) print(sideBySideTable(`compacting hook, 10MB, by host shape (${currentRuntime()})`, shapes));
  const over = Object.entries(sizes).filter(([, figures]) => figures.pool_p50_ms > BUDGET_MS);
  for (const [label, figures] of over) warn(`over budget: ${label} pooled p50 ${figures.pool_p50_ms.toFixed(0)} ms > ${BUDGET_MS} ms`);
  const storeOver = store ? storeOverBudget(store, warn) : 0;
  let bunFailed = false;
  if (runtime === 'both') {
    out.step("the same under OpenCode's Bun");
    const bun = await benchUnderBun([...passed.filter((arg) => arg !== '--json'), '--json']);
    bunFailed = bun.code !== 0;
    const bunReport = JSON.parse(bun.stdout.trim().split('\n').at(-1) ?? '{}') as { runtime?: string; sizes?: Record<string, Record<string, number | null>>; host_shapes?: Record<string, HookFigures> | null };
    report['bun'] = bunReport;
    if (bunReport.host_shapes) print(sideBySideTable(`compacting hook, 10MB, by host shape (${bunReport.runtime ?? 'bun'})`, bunReport.host_shapes));
    const rows = sideBySide({ [currentRuntime()]: sizes, [bunReport.runtime ?? 'bun']: bunReport.sizes ?? {} }, '10MB');
    // sideBySide gives a row per figure; the table takes a column per runtime.
    const columns: Record<string, Record<string, unknown>> = {};
    for (const { ['10MB figure']: figure, ...values } of rows) {
      for (const [name, value] of Object.entries(values)) (columns[name] ??= {})[String(figure)] = value;
    }
    print(sideBySideTable('10MB figure', columns));
  }
  if (values.json) process.stdout.write(`${JSON.stringify(report)}\n`);
  return over.length + storeOver > 0 || bunFailed ? 1 : 0;
}

function storeOverBudget(store: StoreFigures, log: (text: string) => void): number {
  let over = 0;
  for (const [key, budget] of Object.entries(STORE_BUDGETS) as [keyof typeof STORE_BUDGETS, number][]) {
    if (store[key] > budget) {
      log(`over budget: store ${key} ${store[key]} > ${budget}`);
      over += 1;
    }
  }
  return over;
}

function reportStore(store: StoreFigures, json: boolean, log: (text: string) => void): number {
  if (json) process.stdout.write(`${JSON.stringify({ store, store_budgets: STORE_BUDGETS })}\n`);
  return storeOverBudget(store, log) > 0 ? 1 : 0;
}

// Bun ends a process whose event loop holds nothing but unreferenced handles, even while a promise
// waits on a worker (the plugin's deadlines and piscina's idle workers are unreferenced, as a host
// process should have them); OpenCode's server keeps its loop busy, this script does not.
const keepAlive = setInterval(() => undefined, 60_000);
main(process.argv.slice(2)).then(
  (code) => {
    clearInterval(keepAlive);
    process.exitCode = code;
  },
  (error: unknown) => {
    clearInterval(keepAlive);
    process.exitCode = reportFailure('bench', error, true);
  },
);
