/**
 * `npm run eval -- --sequence`: whether what a project's sessions left in
 * memory is what its next session needed. Each project's earlier sessions are
 * compacted in order, each by a plugin instance of its own, through the
 * plugin's default export and the built-in file store (one scenario process
 * per project, sequence-scenario.ts); a new instance then starts the
 * project's next session. Its Project Memory block is scored line by line
 * against what the later session's start shows it needed (`needed` of the
 * project's truth), and its decision, problem and next-step lines against the
 * same items (injected-line precision).
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { countTokens } from '../core/text/tokens/tokens.js';
import type { HostLine } from '../main/host/host-port.js';
import { CONTINUITY_PLUGIN_OPTIONS, compactingProject, runScenarioProcess, type Outcome } from './continuity.js';
import { prepareScenarioProgram } from './continuity-program.js';
import type { InstanceLog } from './continuity-scenario.js';
import { injectedPrecision, projectMemoryBlock, receivedUnits, type InjectedPrecision } from './continuity-score.js';
import type { SequenceProject, SequenceTruth } from './sequence-corpus.js';
import type { SequenceResult, SequenceSpec } from './sequence-scenario.js';
import { allGroupsMatch } from './truth-match.js';
import type { TruthItem } from './score.js';

/** What one project's next session received, scored. */
export interface SequenceScore {
  /** Items of `needed` whose groups all occur in one line (or bullet) of the Project Memory block. */
  hits: number;
  total: number;
  missed: string[];
  /** The block's decision, problem and next-step lines against `needed`. */
  injected: InjectedPrecision;
}

/** One project's run. */
export interface SequenceRun {
  project: string;
  /** Its earlier sessions, as compacted. */
  earlier: string[];
  later: string;
  ok: boolean;
  failure?: string;
  /** What the next session received (every block); `null` when the run failed. */
  received: string | null;
  score: SequenceScore;
  /** o200k tokens of the received text. */
  tokens: number | null;
  /** Those of its Project Memory block alone. */
  blockTokens: number | null;
  notes: string[];
  logs: InstanceLog[];
  ms: number;
}

/** One project's figures in the report. */
export interface SequenceProjectReport {
  sessions: number;
  ok: boolean;
  needed_recall: number;
  /** `hits/total`. */
  needed: string;
  injected_precision: number;
  injected_lines: number;
  tokens: number | null;
  block_tokens: number | null;
}

/** The `sequence` object of `npm run eval -- --sequence --json`. */
export interface SequenceReport {
  host: HostLine;
  projects: number;
  /** Projects whose run ended within its deadline with a next session started. */
  ok: number;
  /** Earlier sessions compacted, over all projects. */
  sessions: number;
  /** Items of `needed` the next sessions' blocks held, over all items, pooled. */
  needed_recall: number;
  /** The blocks' decision, problem and next-step lines that match an item of `needed`, over those lines, pooled. */
  injected_precision: number;
  injected_lines: number;
  /** Mean o200k tokens of what the next sessions received, over the projects that ran. */
  tokens_mean: number;
  /** The same of their Project Memory blocks alone (the graph context after a block is left out). */
  block_tokens_mean: number;
  per_project: Record<string, SequenceProjectReport>;
}

/** Options of {@link runSequence}. */
export interface SequenceOptions {
  /** Longest run of one compaction in a project's scenario; the project's deadline is this times its sessions, plus one. @default 180000 */
  sessionTimeoutMs: number;
  /** Longest wait for one plugin start or hook call. @default 30000 */
  stepMs: number;
  /** Longest wait for a compaction's summary to land in memory. @default 20000 */
  settleMs: number;
  /** Options of every plugin instance besides `store` and `stateDir`. @default CONTINUITY_PLUGIN_OPTIONS */
  pluginOptions: Record<string, unknown>;
  /** The OpenCode line every instance runs on. @default 'v1' */
  host: HostLine;
  /** Told of each project as it starts. */
  onProject?: (project: string, index: number, total: number) => void;
}

const DEFAULT_SEQUENCE_OPTIONS: Readonly<SequenceOptions> = Object.freeze({
  sessionTimeoutMs: 180_000,
  stepMs: 30_000,
  settleMs: 20_000,
  pluginOptions: CONTINUITY_PLUGIN_OPTIONS,
  host: 'v1',
});

/**
 * Scores what a project's next session received against what it needed.
 *
 * @param needed - the project's `needed` items.
 * @param received - the next session's received text; only its Project Memory block counts.
 */
export function scoreSequence(needed: readonly TruthItem[], received: string): SequenceScore {
  const units = receivedUnits(projectMemoryBlock(received));
  const missed = needed.filter((item) => !units.some((unit) => allGroupsMatch(item.keywords, unit))).map((item) => item.text);
  return { hits: needed.length - missed.length, total: needed.length, missed, injected: injectedPrecision(received, needed) };
}

const rate = (hits: number, total: number): number => (total > 0 ? hits / total : 0);

/**
 * The report of a run: per project, and pooled over items and lines.
 *
 * @param host - the line the run went through.
 * @param runs - every project's run, failed ones included (their items all missed).
 */
export function sequenceReport(host: HostLine, runs: readonly SequenceRun[]): SequenceReport {
  const sum = (pick: (run: SequenceRun) => number): number => runs.reduce((total, run) => total + pick(run), 0);
  const tokens = runs.flatMap((run) => (run.tokens === null ? [] : [run.tokens]));
  const blockTokens = runs.flatMap((run) => (run.blockTokens === null ? [] : [run.blockTokens]));
  const mean = (values: readonly number[]): number => (values.length > 0 ? values.reduce((total, value) => total + value, 0) / values.length : 0);
  const lines = sum((run) => run.score.injected.lines);
  return {
    host,
    projects: runs.length,
    ok: runs.filter((run) => run.ok).length,
    sessions: sum((run) => run.earlier.length),
    needed_recall: rate(sum((run) => run.score.hits), sum((run) => run.score.total)),
    injected_precision: rate(sum((run) => run.score.injected.matched), lines),
    injected_lines: lines,
    tokens_mean: mean(tokens),
    block_tokens_mean: mean(blockTokens),
    per_project: Object.fromEntries(
      runs.map((run) => [
        run.project,
        {
          sessions: run.earlier.length,
          ok: run.ok,
          needed_recall: rate(run.score.hits, run.score.total),
          needed: `${run.score.hits}/${run.score.total}`,
          injected_precision: rate(run.score.injected.matched, run.score.injected.lines),
          injected_lines: run.score.injected.lines,
          tokens: run.tokens,
          block_tokens: run.blockTokens,
        },
      ]),
    ),
  };
}

function failedRun(truth: SequenceTruth, reason: string, ms: number, extra: Partial<SequenceRun> = {}): SequenceRun {
  return { project: truth.project, earlier: truth.earlier, later: truth.later, ok: false, failure: reason, received: null, score: scoreSequence(truth.needed, ''), tokens: null, blockTokens: null, notes: [], logs: [], ms, ...extra };
}

/**
 * Runs every project's sequence, one project at a time, and scores it.
 *
 * @param projects - from `loadSequenceCorpus`.
 * @param options - see {@link SequenceOptions}.
 */
export async function runSequence(projects: readonly SequenceProject[], options: Partial<SequenceOptions> = {}): Promise<{ report: SequenceReport; runs: SequenceRun[]; notes: string[] }> {
  const settings: SequenceOptions = { ...DEFAULT_SEQUENCE_OPTIONS, ...options };
  const notes: string[] = [];
  const runs: SequenceRun[] = [];
  const work = await mkdtemp(join(tmpdir(), 'maenifold-sequence-'));
  const runnable = projects.filter((project) => project.sessions.every(({ session }) => session.ok));
  const program = runnable.length > 0 ? await prepareScenarioProgram() : null;
  if (program?.note) notes.push(program.note);
  try {
    for (const [index, { truth, sessions }] of projects.entries()) {
      settings.onProject?.(truth.project, index, projects.length);
      const started = performance.now();
      const unreadable = sessions.find(({ session }) => !session.ok);
      if (unreadable || !program) {
        const reason = unreadable && !unreadable.session.ok ? `${unreadable.name}: ${unreadable.session.reason}` : 'no scenario program';
        runs.push(failedRun(truth, reason, performance.now() - started));
        continue;
      }
      const folder = join(work, String(index));
      // The project's folder is named after it: its name and key are in the received text.
      const directory = join(work, 'projects', truth.project);
      await mkdir(directory, { recursive: true });
      const spec: SequenceSpec = {
        kind: 'sequence',
        root: join(folder, 'root'),
        stateDir: join(folder, 'state'),
        directory,
        sessions: sessions.map((entry, at) => compactingProject(entry, `sequence ${truth.project}`, directory, `ses_${truth.project}_${at + 1}`)),
        pluginOptions: settings.pluginOptions,
        stepMs: settings.stepMs,
        settleMs: settings.settleMs,
        host: settings.host,
      };
      const outcome: Outcome<SequenceResult> = await runScenarioProcess<SequenceResult>(program, spec, folder, settings.sessionTimeoutMs * (sessions.length + 1));
      const ms = performance.now() - started;
      if (!outcome.ok) {
        runs.push(failedRun(truth, outcome.reason, ms));
      } else if (outcome.result.received === null) {
        runs.push(failedRun(truth, 'the next session did not start', ms, { notes: outcome.result.notes, logs: outcome.result.logs }));
      } else {
        const { received } = outcome.result;
        runs.push({ project: truth.project, earlier: truth.earlier, later: truth.later, ok: true, received, score: scoreSequence(truth.needed, received), tokens: countTokens(received), blockTokens: countTokens(projectMemoryBlock(received)), notes: outcome.result.notes, logs: outcome.result.logs, ms });
      }
    }
  } finally {
    await program?.dispose().catch(() => undefined);
    await rm(work, { recursive: true, force: true }).catch(() => undefined);
  }
  return { report: sequenceReport(settings.host, runs), runs, notes };
}
