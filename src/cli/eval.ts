/**
 * `npm run eval`: how much of what matters the compaction extraction keeps
 * from real sessions, against hand-written truth, beside two baselines.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createWorkerPool } from '../main/pool/worker-pool.js';
import { DEFAULT_PLUGIN_OPTIONS } from '../main/options/plugin-options.js';
import { loadCorpus } from '../eval/corpus.js';
import { runEval, type EvalReport, type SessionRun } from '../eval/run-eval.js';
import type { Metrics } from '../eval/pooled-metrics.js';
import type { SessionScore } from '../eval/score.js';
import { CONTINUITY_PLUGIN_OPTIONS, runContinuity } from '../eval/continuity.js';
import { compareHosts } from '../eval/continuity-compare.js';
import { continuityMisses, formatContinuity, formatHostComparison, roundedContinuity, sessionContextLog } from '../eval/continuity-format.js';
import { loadSequenceCorpus } from '../eval/sequence-corpus.js';
import { runSequence } from '../eval/sequence.js';
import { formatSequence, roundedSequence, sequenceMisses } from '../eval/sequence-format.js';
import { formatLongMemory, runLongMemory } from '../eval/long-memory.js';
import { parseCliArgs, POOL_FLAGS, poolOptionsOf, progressLine, runCli, UsageError, userPath } from './run-cli.js';

const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Where the eval looks without `--corpus`: the variable's folder, else the development corpus beside the project. */
const CORPUS_VARIABLE = 'MAENIFOLD_EVAL_CORPUS';
const DEFAULT_CORPUS = process.env[CORPUS_VARIABLE] || join(PROJECT_ROOT, '..', 'shared', 'real-sessions');

/** What a corpus is and how to make one, for a run that has none: the end of a one-line message. */
const CORPUS_HINT =
  'a corpus is a folder of your own session exports, sessions/NAME.json (`opencode export <id> > sessions/NAME.json`), ' +
  'each with a hand-written truth/NAME.json listing the decisions, files, problems, topics and next steps it should keep ' +
  '(examples: eval/outside/truth/); then run npm run eval -- --corpus DIR';

/**
 * The corpus folder to read.
 *
 * @param given - `--corpus`, absolute.
 * @throws Error, one line saying what a corpus is, when there is no corpus folder to read.
 */
function corpusFolder(given: string | undefined): string {
  if (given === undefined) {
    if (existsSync(join(DEFAULT_CORPUS, 'truth'))) return DEFAULT_CORPUS;
    throw new Error(`no corpus: ${CORPUS_HINT}`);
  }
  if (!existsSync(given)) throw new Error(`no corpus at ${given}: ${CORPUS_HINT}`);
  if (!existsSync(join(given, 'truth'))) throw new Error(`${given} has no truth/ folder: ${CORPUS_HINT}`);
  return given;
}

const USAGE = `Usage: npm run eval [-- --corpus DIR] [--json] [--verbose] [--strategy conservative|aggressive] [--continuity [--host v1|v2 | --compare-hosts]] [--threads N] [--no-warm-up]
       npm run eval -- --sequence --corpus DIR [--json] [--verbose] [--host v1|v2]
       npm run eval -- --long [--json] [--verbose] [--host v1|v2]

Runs the extraction the compacting hook uses (same engine, same settings,
through the worker pool) over every session of a corpus folder and scores what
it keeps against the folder's truth files, beside two baselines scored in the
same run: "seed" (the naive handler the plugin started from, as written) and
"tail" (the last 500 tokens of the conversation's text). Prints a table per
session and pooled.

  --corpus DIR    holds sessions/<name>.json or .json.gz (session exports, as
                  \`opencode export <id>\` writes them) and truth/<name>.json (what a
                  careful reader keeps from each; examples in eval/outside/truth/)
                  (default: $MAENIFOLD_EVAL_CORPUS, else ../shared/real-sessions
                  beside the project, when either exists)
  --json          print one JSON object instead of the tables
                  (use \`npm run --silent eval -- --json\` to keep npm's banner off stdout)
  --verbose       list what was missed per session (on stderr with --json)
  --strategy S    the compaction strategy option (default: the plugin's default)
  --threads N     worker threads of the extraction (default: the plugin's)
  --no-warm-up    start extracting without warming the workers up first (with --continuity,
                  the scenario's plugins' workers too): less work in all, and the first
                  sessions' times include the workers' first compilations
  --continuity    also measure what reaches the next session: each session is
                  compacted by a project through the plugin's default export and
                  the built-in file store, a new plugin instance starts the
                  project's next session, and what its system prompt received is
                  scored line by line; lines that came from another project's
                  compaction are counted as leaked (a "continuity" object in --json;
                  with --verbose, the plugin's session context log on stderr)
  --host LINE     with --continuity: the OpenCode line the plugin runs on, v1 (its
                  server() hooks, default) or v2 (setup(ctx) and the 2.x hooks)
  --compare-hosts with --continuity: run each session through both lines at once and
                  list the sessions whose next session received different text
                  ("continuity" is 1.x's, "continuity_v2" 2.x's, "continuity_hosts"
                  the comparison in --json)
  --sequence      instead, measure what a project's next session receives after its
                  earlier sessions: DIR holds sessions/<name>.json and, per project,
                  truth/<project>.next.json ({ project, earlier: [names, oldest first],
                  later, needed: [{ text, keywords }] }); each project's sessions are
                  compacted in order, then its next session's Project Memory block is
                  scored line by line against "needed" (recall, and the precision of
                  its decision, problem and next-step lines); the corpora are rebuilt
                  by eval/sequence/rebuild.mjs (default DIR: $MAENIFOLD_SEQUENCE_CORPUS)
  --long          instead: a generated project of 60 sessions with decisions made,
                  reversed and forgotten at known points, run through the plugin's
                  default export (--host too); scores whether session 60's block holds
                  every decision still standing and none that is not (a "long" object in --json)
  --help          show this text`;

const round = (value: number, places: number): number => Number(value.toFixed(places));

/** The report with rates to three places, as printed. */
function rounded(report: EvalReport): EvalReport {
  const metrics = (m: Metrics): Metrics => Object.fromEntries(Object.entries(m).map(([key, value]) => [key, round(value, 3)])) as unknown as Metrics;
  return {
    sessions: report.sessions,
    ok: report.ok,
    metrics: metrics(report.metrics),
    baselines: { seed: metrics(report.baselines.seed), tail: metrics(report.baselines.tail) },
    context_tokens_mean: round(report.context_tokens_mean, 1),
    extract_ms_p50: round(report.extract_ms_p50, 0),
  };
}

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return rows.map((row) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ').trimEnd()).join('\n');
}

function sessionRow(run: SessionRun): string[] {
  const { counts: c, ok } = run.engine;
  const frac = (hits: number, total: number): string => `${hits}/${total}`;
  return [
    run.name,
    ok ? 'ok' : 'FAILED',
    run.ms === null ? '-' : String(Math.round(run.ms)),
    run.tokens === null ? '-' : String(run.tokens),
    `${frac(c.decisionHits, c.decisionTruth)} (${c.decisionsExtracted}, ${c.decisionsReal})`,
    frac(c.fileHits, c.fileTruth),
    frac(c.problemHits, c.problemTruth),
    frac(c.nextHits, c.nextTruth),
    frac(c.topicHits, c.topicTruth),
  ];
}

const METRIC_LABELS: ReadonlyArray<[keyof Metrics, string]> = [
  ['decision_recall', 'decision recall'],
  ['decision_precision', 'decision precision'],
  ['file_recall', 'file recall'],
  ['problem_recall', 'problem recall'],
  ['next_recall', 'next-step recall'],
  ['topic_concept_rate', 'topics as concepts'],
];

function formatReport(report: EvalReport, runs: readonly SessionRun[]): string {
  const sessions = table([
    ['session', 'run', 'ms', 'tokens', 'decisions (extracted, real)', 'files', 'problems', 'next', 'topics'],
    ...runs.map(sessionRow),
  ]);
  const failures = runs.filter((run) => !run.engine.ok).map((run) => `${run.name}: ${run.engine.failure ?? 'failed'}`);
  const f2 = (value: number): string => value.toFixed(2);
  const pooled = table([
    ['metric (pooled)', 'engine', 'seed', 'tail'],
    ...METRIC_LABELS.map(([key, label]) => [label, f2(report.metrics[key]), f2(report.baselines.seed[key]), f2(report.baselines.tail[key])]),
  ]);
  return [
    sessions,
    ...failures,
    '',
    pooled,
    '',
    `${report.ok}/${report.sessions} sessions ok; context ${report.context_tokens_mean.toFixed(1)} tokens on average; extraction p50 ${Math.round(report.extract_ms_p50)} ms`,
    '',
  ].join('\n');
}

function missedLines(score: SessionScore): string[] {
  const lines = [`${score.name}${score.ok ? '' : ` (failed: ${score.failure ?? 'unknown'})`}`];
  const list = (label: string, items: readonly string[]): void => {
    for (const item of items) lines.push(`  ${label}: ${item}`);
  };
  list('missed decision', score.missed.decisions);
  list('missed file', score.missed.files);
  list('missed problem', score.missed.problems);
  list('missed next step', score.missed.next);
  list('missed topic', score.missed.topics);
  list('noise decision', score.noise.map((text) => text.slice(0, 160)));
  return lines;
}

/** The flags `--sequence` reads; `--corpus` and `--host` as the other modes read them. */
interface SequenceArgs {
  corpus?: string | undefined;
  host?: string | undefined;
  json: boolean;
  verbose: boolean;
  continuity: boolean;
  'compare-hosts': boolean;
  'no-warm-up'?: boolean | undefined;
}

/** `--sequence`: each project's sessions compacted in order, its next session scored against what it needed. */
async function sequenceCommand(args: SequenceArgs): Promise<number> {
  if (args.continuity || args['compare-hosts']) throw new UsageError('--sequence runs on its own: give it without --continuity or --compare-hosts');
  const host = args.host ?? 'v1';
  if (host !== 'v1' && host !== 'v2') throw new UsageError(`--host must be v1 or v2 (got "${host}")`);
  const given = args.corpus === undefined ? process.env['MAENIFOLD_SEQUENCE_CORPUS'] || undefined : userPath(args.corpus);
  if (given === undefined) throw new UsageError('--sequence needs --corpus DIR: a folder of sessions/ and truth/<project>.next.json (node eval/sequence/rebuild.mjs builds the project\'s)');
  const projects = await loadSequenceCorpus(given);
  const progress = progressLine();
  const plugins = args['no-warm-up'] ? { pluginOptions: { ...CONTINUITY_PLUGIN_OPTIONS, pool: { ...CONTINUITY_PLUGIN_OPTIONS.pool, warmUp: false } } } : {};
  const { report, runs, notes } = await runSequence(projects, { ...plugins, host, onProject: (name, index, total) => progress(`sequence [${index + 1}/${total}] ${name}`) });
  for (const note of notes) process.stderr.write(`sequence: ${note}\n`);
  const shown = roundedSequence(report);
  if (args.verbose) (args.json ? process.stderr : process.stdout).write(`${sequenceMisses(runs).join('\n')}\n\n`);
  process.stdout.write(args.json ? `${JSON.stringify({ sequence: shown })}\n` : formatSequence(shown, runs));
  return 0;
}

async function main(argv: string[]): Promise<number> {
  const args = parseCliArgs(
    argv,
    {
      corpus: { type: 'string' },
      json: { type: 'boolean', default: false },
      verbose: { type: 'boolean', default: false },
      strategy: { type: 'string' },
      continuity: { type: 'boolean', default: false },
      host: { type: 'string' },
      'compare-hosts': { type: 'boolean', default: false },
      sequence: { type: 'boolean', default: false },
      long: { type: 'boolean', default: false },
      ...POOL_FLAGS,
    },
    USAGE,
  );
  if (!args) return 0;
  if (args.sequence) return sequenceCommand(args);
  if (args.long) {
    const line = args.host ?? 'v1';
    if (line !== 'v1' && line !== 'v2') throw new UsageError(`--host must be v1 or v2 (got "${line}")`);
    const long = await runLongMemory({ host: line, onSession: (index, total) => progressLine()(`long [${index}/${total}]`) });
    if (args.verbose) (args.json ? process.stderr : process.stdout).write(`${long.block}\n\n`);
    process.stdout.write(args.json ? `${JSON.stringify({ long: long.report })}\n` : formatLongMemory(long.report));
    return 0;
  }
  const strategy = args.strategy ?? DEFAULT_PLUGIN_OPTIONS.compactionStrategy;
  if (strategy !== 'conservative' && strategy !== 'aggressive') throw new UsageError(`--strategy must be conservative or aggressive (got "${strategy}")`);
  const host = args.host ?? 'v1';
  if (host !== 'v1' && host !== 'v2') throw new UsageError(`--host must be v1 or v2 (got "${host}")`);
  if ((args.host !== undefined || args['compare-hosts']) && !args.continuity) throw new UsageError(`--${args.host !== undefined ? 'host' : 'compare-hosts'} is taken only with --continuity`);
  if (args.host !== undefined && args['compare-hosts']) throw new UsageError('--compare-hosts runs both lines: give it without --host');
  const poolOptions = poolOptionsOf(args);
  const entries = await loadCorpus(corpusFolder(args.corpus === undefined ? undefined : userPath(args.corpus)));
  const progress = progressLine();

  const pool = createWorkerPool(poolOptions);
  let shown: EvalReport;
  let runs: SessionRun[];
  try {
    const ready = await pool.ready;
    if (!ready.ok) throw new Error(`the worker pool did not start: ${ready.error.message}`);
    ({ runs, report: shown } = await runEval(entries, pool, {
      compaction: { compactionTokens: DEFAULT_PLUGIN_OPTIONS.compactionTokens, compactionStrategy: strategy },
      onSession: (name, index, total) => progress(`[${index + 1}/${total}] ${name}`),
    }));
    shown = rounded(shown);
  } finally {
    await pool.destroy();
  }
  const details = args.json ? process.stderr : process.stdout;
  if (args.verbose) {
    const missed = runs.flatMap((run) => missedLines(run.engine)).join('\n');
    details.write(`${missed}\n${args.json ? '' : '\n'}`);
  }
  if (!args.continuity) {
    process.stdout.write(args.json ? `${JSON.stringify(shown)}\n` : formatReport(shown, runs));
    return 0;
  }
  // --no-warm-up holds for the scenario's plugins too: each starts a pool of its own.
  const plugins = poolOptions.warmUp === false ? { pluginOptions: { ...CONTINUITY_PLUGIN_OPTIONS, pool: { ...CONTINUITY_PLUGIN_OPTIONS.pool, warmUp: false } } } : {};
  const settings = { ...plugins, onSession: (name: string, index: number, total: number) => progress(`continuity [${index + 1}/${total}] ${name}`) };
  if (args['compare-hosts']) {
    const comparison = await compareHosts(entries, settings);
    for (const note of comparison.notes) process.stderr.write(`continuity: ${note}\n`);
    const v1 = roundedContinuity(comparison.v1.report);
    const v2 = roundedContinuity(comparison.v2.report);
    if (args.verbose) {
      for (const [line, results] of [['1.x', comparison.v1], ['2.x', comparison.v2]] as const) {
        details.write(`through OpenCode ${line}:\n${continuityMisses(results.runs).join('\n')}\n${args.json ? '' : '\n'}`);
        process.stderr.write(`through OpenCode ${line}:\n${sessionContextLog(results.runs).join('\n')}\n`);
      }
    }
    const hosts = { identical: comparison.identical, differences: comparison.differences.map(({ name, kind, onlyV1, onlyV2 }) => ({ session: name, kind, only_v1: onlyV1, only_v2: onlyV2 })) };
    process.stdout.write(
      args.json
        ? `${JSON.stringify({ ...shown, continuity: v1, continuity_v2: v2, continuity_hosts: hosts })}\n`
        : `${formatReport(shown, runs)}\n${formatContinuity(v1, comparison.v1.runs)}\n${formatContinuity(v2, comparison.v2.runs)}\n${formatHostComparison(comparison)}`,
    );
    return 0;
  }
  const continuity = await runContinuity(entries, { ...settings, host });
  const carried = roundedContinuity(continuity.report);
  for (const note of continuity.notes) process.stderr.write(`continuity: ${note}\n`);
  if (args.verbose) {
    details.write(`${continuityMisses(continuity.runs).join('\n')}\n${args.json ? '' : '\n'}`);
    process.stderr.write(`${sessionContextLog(continuity.runs).join('\n')}\n`);
  }
  process.stdout.write(args.json ? `${JSON.stringify({ ...shown, continuity: carried })}\n` : `${formatReport(shown, runs)}\n${formatContinuity(carried, continuity.runs)}`);
  return 0;
}

runCli('opencode-maenifold eval', main);
