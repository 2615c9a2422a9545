/**
 * `npm run eval -- --continuity`: whether what a session decided reaches the
 * next session of the same project, and only of that project. Each corpus
 * session is compacted by project P through the plugin's default export and
 * the built-in file store; a new plugin instance then starts P's next session
 * and what its system prompt received is scored line by line against the
 * session's truth. Project Q then compacts the next session of the corpus in
 * the same memory. Leaked lines, counted with their multiplicity and compared
 * with dates, times and ages masked (`comparableLine`):
 * - the lines P's next session received after Q compacted that it did not
 *   receive, in the same memory, before Q compacted (both in new instances);
 * - every non-empty line a project R that never compacted receives in that
 *   memory and does not receive in an empty one: R has nothing of its own to
 *   remember, so anything a memory adds is P's or Q's.
 * Each session runs in a process of its own (continuity-scenario.ts), killed
 * at its deadline, through one OpenCode line's entry and hooks (1.x by
 * default, or 2.x); `compareHosts` (continuity-compare.ts) runs both lines'
 * processes of a session at once and lists the sessions whose next session
 * received different text.
 */
import { runProcess } from '../main/memory/cli/process-runner.js';
import { createHash } from 'node:crypto';
import { exportHead, messageViewsOf } from '../main/session/session-export.js';
import { lastSummaryText } from '../main/summaries/compacted-summary.js';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { countTokens } from '../core/text/tokens/tokens.js';
import type { HostLine } from '../main/host/host-port.js';
import type { CorpusEntry } from './corpus.js';
import { prepareScenarioProgram, type ScenarioProgram } from './continuity-program.js';
import type { CompactingProject, InstanceLog, ScenarioResult, ScenarioSpec } from './continuity-scenario.js';
import type { SequenceSpec } from './sequence-scenario.js';
import { clockMasked, leakage, missedContinuity, projectMemoryBlock, scoreContinuity, summaryProbe, type ContinuityCounts, type ContinuityScore, type Leakage } from './continuity-score.js';

/** The rates of one way of starting the next session, pooled over sessions. */
export interface ContinuityRates {
  decision_recall: number;
  problem_recall: number;
  next_recall: number;
  topic_rate: number;
  /** Of the decision, problem and next-step lines the blocks held, the share matching a truth item of their session (`injectedPrecision`), pooled. */
  injected_precision: number;
  /** Those lines, over all sessions counted. */
  injected_lines: number;
  /** Sessions whose received text holds the delivered summary, over all sessions counted. */
  summary_carried: number;
  /** Mean o200k tokens of the received text over the sessions counted. */
  tokens_mean: number;
}

/** The `continuity` object of `npm run eval -- --continuity --json`. */
export interface ContinuityReport extends ContinuityRates {
  /** The OpenCode line the plugin ran on. */
  host: HostLine;
  sessions: number;
  /** Sessions whose scenario ran to the end within its deadline. */
  ok: number;
  /** Mean o200k tokens of the Project Memory block alone in the received text, over the sessions that ran (the graph context after it is left out). */
  block_tokens_mean: number;
  /** Lines P received because of Q, plus lines R received from P or Q, over all sessions. */
  leaked_items: number;
  /** The same rates when the instance that compacted starts the next session (no new process); over the sessions where it could. */
  same_process: ContinuityRates & { sessions: number };
  /** Each session's {@link receivedDigest}, `null` when its run failed: two runs (two hosts) received the same text when these agree. */
  received: Record<string, string | null>;
}

/** One session's run. */
export interface ContinuityRun {
  name: string;
  /** The session project Q compacted beside it. */
  other: string;
  ok: boolean;
  failure?: string;
  /** What P's next session in a new plugin instance received; `null` when the run failed. */
  received: string | null;
  /** Its {@link receivedDigest}. */
  digest: string | null;
  /** The headline: that text's score. */
  score: ContinuityScore;
  tokens: number | null;
  /** Tokens of the Project Memory block of that text. */
  blockTokens: number | null;
  /** P's next session in the instance that compacted, when it was still open. */
  same: ContinuityScore | null;
  sameTokens: number | null;
  leaked: Leakage;
  /** What went wrong in the scenario without stopping it. */
  notes: string[];
  /** The plugin instances' log lines. */
  logs: InstanceLog[];
  ms: number;
}

/** Options of {@link runContinuity}. */
export interface ContinuityOptions {
  /** Longest run of one session's scenario; past it the process is killed and the session fails. @default 180000 */
  sessionTimeoutMs: number;
  /** Longest wait for one plugin start or hook call inside a scenario. @default 30000 */
  stepMs: number;
  /** Longest wait for a compaction's summary to land in memory. @default 20000 */
  settleMs: number;
  /**
   * Options of every plugin instance besides `store` and `stateDir`. One worker per instance, at the
   * scenario's priority: a scenario starts five, and neither how many threads run tasks nor their priority
   * changes a result, while workers niced below everything else on a busy machine made a scenario wait
   * seconds for each task. @default { pool: { threads: 1, niceness: 0 } }
   */
  pluginOptions: Record<string, unknown>;
  /** The OpenCode line every plugin instance runs on: its entry (`server` or `setup`) and its hooks. @default 'v1' */
  host: HostLine;
  /** Told of each session as it starts. */
  onSession?: (name: string, index: number, total: number) => void;
}

/** The plugin options of every instance a scenario starts, by default (see {@link ContinuityOptions.pluginOptions}). */
export const CONTINUITY_PLUGIN_OPTIONS = Object.freeze({ pool: Object.freeze({ threads: 1, niceness: 0 }) });

const DEFAULT_CONTINUITY_OPTIONS: Readonly<ContinuityOptions> = Object.freeze({
  sessionTimeoutMs: 180_000,
  stepMs: 30_000,
  settleMs: 20_000,
  pluginOptions: CONTINUITY_PLUGIN_OPTIONS,
  host: 'v1',
});

/**
 * The text of a session's last compaction summary: its last assistant message with `summary: true` and text.
 *
 * @param messages - the export's `{ info, parts }` entries, oldest first.
 */
export function lastCompactionSummary(messages: readonly unknown[]): string | null {
  return lastSummaryText(messageViewsOf(messages));
}

function exportParts(session: unknown): { id: string | null; messages: unknown[] } {
  const value = (session ?? {}) as { messages?: unknown };
  return { id: exportHead(session).id, messages: Array.isArray(value.messages) ? value.messages : [] };
}

/**
 * A session as a project compacts it: its messages, its id, and the summary its compaction delivers (its
 * own last compaction summary, else a marker line).
 *
 * @param entry - the session's name and export.
 * @param role - names the marker of a session without a summary (`P`, `Q`, or a sequence's), so two
 *   projects' markers differ even when both compact the one session of a corpus, and two runs mark it alike.
 * @param directory - the project's folder.
 * @param fallbackID - the session's id when its export has none.
 */
export function compactingProject(entry: Pick<CorpusEntry, 'name' | 'session'>, role: string, directory: string, fallbackID: string): CompactingProject {
  const { id, messages } = entry.session.ok ? exportParts(entry.session.value) : { id: null, messages: [] };
  const marker = createHash('sha256').update(`${role}:${entry.name}`).digest('hex').slice(0, 12);
  const summary = lastCompactionSummary(messages) ?? `Summary marker ${marker}`;
  return { directory, sessionID: id ?? fallbackID, messages, summary, probe: summaryProbe(summary) };
}

/** The environment of a scenario: no `MAENIFOLD_*` setting of the caller's, and a home of its own (no user rules). */
function scenarioEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('MAENIFOLD_')) env[key] = value;
  return { ...env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_STATE_HOME: join(home, '.local', 'state'), XDG_DATA_HOME: join(home, '.local', 'share') };
}

/** How a scenario process ended: its result, or why there is none. */
export type Outcome<R = ScenarioResult> = { ok: true; result: R } | { ok: false; reason: string };

/**
 * Runs one scenario in a process of its own, in a home of its own, killed at its deadline.
 *
 * @param program - how the scenario's process starts.
 * @param spec - what it runs (a continuity scenario's or a sequence's), written to `folder/spec.json`.
 * @param folder - the scenario's own folder.
 * @param timeoutMs - the deadline of the whole process.
 */
export async function runScenarioProcess<R = ScenarioResult>(program: ScenarioProgram, spec: ScenarioSpec | SequenceSpec, folder: string, timeoutMs: number): Promise<Outcome<R>> {
  await mkdir(folder, { recursive: true });
  const home = join(folder, 'home');
  await mkdir(home, { recursive: true });
  const specFile = join(folder, 'spec.json');
  const resultFile = join(folder, 'result.json');
  await writeFile(specFile, JSON.stringify(spec));
  // The project's one way to start a process: an argv array, a deadline that kills the whole group, bounded output.
  const exit = await runProcess(process.execPath, program.argv(specFile, resultFile), { cwd: program.cwd, env: scenarioEnv(home), timeoutMs, maxStdoutBytes: 16 * 1024 * 1024 });
  if (exit.kind !== 'exited' || exit.code !== 0) {
    const why =
      exit.kind === 'timeout'
        ? `no result within ${timeoutMs} ms (killed)`
        : exit.kind === 'spawn-failed'
          ? `the scenario process could not start (${exit.message})`
          : exit.kind === 'output-too-large'
            ? 'the scenario process printed too much'
            : `the scenario process failed (exit ${String(exit.code ?? exit.signal)})`;
    const detail = 'stderr' in exit ? exit.stderr.trim().split('\n').slice(-3).join(' | ') : '';
    return { ok: false, reason: detail ? `${why}: ${detail}` : why };
  }
  try {
    return { ok: true, result: JSON.parse(await readFile(resultFile, 'utf8')) as R };
  } catch (error) {
    return { ok: false, reason: `the scenario wrote no readable result: ${(error as Error).message}` };
  }
}

/**
 * A digest of received text that two runs share when they received the same text, whenever each ran: the
 * first 16 hex digits of the SHA-256 of its {@link clockMasked} form.
 *
 * @param text - received text.
 */
export function receivedDigest(text: string): string {
  return createHash('sha256').update(clockMasked(text)).digest('hex').slice(0, 16);
}

const rate = (hits: number, total: number): number => (total > 0 ? hits / total : 0);
const mean = (values: readonly number[]): number => (values.length > 0 ? values.reduce((sum, value) => sum + value, 0) / values.length : 0);

/**
 * Rates pooled over sessions: hits and items summed first.
 *
 * @param scores - the sessions' scores, failed ones included.
 * @param tokens - the received texts' tokens, of the sessions that ran.
 */
export function pooledContinuity(scores: readonly ContinuityScore[], tokens: readonly number[]): ContinuityRates {
  const total: ContinuityCounts = { decisionTruth: 0, decisionHits: 0, problemTruth: 0, problemHits: 0, nextTruth: 0, nextHits: 0, topicTruth: 0, topicHits: 0 };
  for (const { counts } of scores) for (const key of Object.keys(total) as (keyof ContinuityCounts)[]) total[key] += counts[key];
  const lines = scores.reduce((sum, score) => sum + score.injected.lines, 0);
  const matched = scores.reduce((sum, score) => sum + score.injected.matched, 0);
  return {
    decision_recall: rate(total.decisionHits, total.decisionTruth),
    problem_recall: rate(total.problemHits, total.problemTruth),
    next_recall: rate(total.nextHits, total.nextTruth),
    topic_rate: rate(total.topicHits, total.topicTruth),
    injected_precision: rate(matched, lines),
    injected_lines: lines,
    summary_carried: rate(scores.filter((score) => score.carried).length, scores.length),
    tokens_mean: mean(tokens),
  };
}

/** A run's folders and settings that every host's scenario of a session shares. */
interface SessionPlan {
  entry: CorpusEntry;
  other: CorpusEntry;
  p: CompactingProject;
  q: CompactingProject;
}

function sessionRun(plan: SessionPlan, outcome: Outcome, ms: number, untouchedBaseline: string): ContinuityRun {
  const { entry, other, p } = plan;
  const failed = (reason: string): ContinuityRun => ({
    name: entry.name,
    other: other.name,
    ok: false,
    failure: reason,
    received: null,
    digest: null,
    score: missedContinuity(entry.truth),
    tokens: null,
    blockTokens: null,
    same: null,
    sameTokens: null,
    leaked: { fromOther: [], intoUntouched: [] },
    notes: [],
    logs: [],
    ms,
  });
  if (!outcome.ok) return failed(outcome.reason);
  const { result } = outcome;
  if (result.pNext === null || result.pAlone === null) return { ...failed('the scenario did not start P’s next session'), notes: result.notes, logs: result.logs };
  return {
    name: entry.name,
    other: other.name,
    ok: true,
    received: result.pNext,
    digest: receivedDigest(result.pNext),
    score: scoreContinuity(entry.truth, result.pNext, p.probe),
    tokens: countTokens(result.pNext),
    blockTokens: countTokens(projectMemoryBlock(result.pNext)),
    same: result.pSame === null ? null : scoreContinuity(entry.truth, result.pSame, p.probe),
    sameTokens: result.pSame === null ? null : countTokens(result.pSame),
    leaked: leakage({ withOther: result.pNext, alone: result.pAlone }, { shared: result.untouched, empty: untouchedBaseline }),
    notes: result.notes,
    logs: result.logs,
    ms,
  };
}

/** A line's results of a run that ran no session through it. */
export function emptyResults(host: HostLine): ContinuityResults {
  return { report: reportOf(host, []), runs: [] };
}

function reportOf(host: HostLine, runs: readonly ContinuityRun[]): ContinuityReport {
  const sameRuns = runs.filter((run) => run.same !== null);
  return {
    host,
    sessions: runs.length,
    ok: runs.filter((run) => run.ok).length,
    ...pooledContinuity(
      runs.map((run) => run.score),
      runs.flatMap((run) => (run.tokens === null ? [] : [run.tokens])),
    ),
    block_tokens_mean: mean(runs.flatMap((run) => (run.blockTokens === null ? [] : [run.blockTokens]))),
    leaked_items: runs.reduce((sum, run) => sum + run.leaked.fromOther.length + run.leaked.intoUntouched.length, 0),
    same_process: {
      sessions: sameRuns.length,
      ...pooledContinuity(
        sameRuns.map((run) => run.same as ContinuityScore),
        sameRuns.flatMap((run) => (run.sameTokens === null ? [] : [run.sameTokens])),
      ),
    },
    received: Object.fromEntries(runs.map((run) => [run.name, run.digest])),
  };
}

/** One host's results of a run. */
export interface ContinuityResults {
  report: ContinuityReport;
  runs: ContinuityRun[];
}

/**
 * Runs every session's scenario once per host, the hosts' scenarios of a session at the same time (so the
 * dates and times their memories write are those of the same moment).
 *
 * @param entries - as for {@link runContinuity}.
 * @param hosts - the lines to run, each once per session.
 * @param options - as for {@link runContinuity}; `host` is not read.
 * @returns each line's results (every line of `hosts` has one) and the run's notes.
 */
export async function runContinuityHosts(entries: readonly CorpusEntry[], hosts: readonly HostLine[], options: Partial<ContinuityOptions> = {}): Promise<{ results: Map<HostLine, ContinuityResults>; notes: string[] }> {
  const settings: ContinuityOptions = { ...DEFAULT_CONTINUITY_OPTIONS, ...options };
  return runHosts(entries, hosts, settings);
}

async function runHosts(entries: readonly CorpusEntry[], hosts: readonly HostLine[], settings: ContinuityOptions): Promise<{ results: Map<HostLine, ContinuityResults>; notes: string[] }> {
  const notes: string[] = [];
  const work = await mkdtemp(join(tmpdir(), 'maenifold-continuity-'));
  // Without a session that can run, no scenario starts and the baseline would compare with nothing.
  const program = entries.some((entry) => entry.session.ok) ? await prepareScenarioProgram() : null;
  if (program?.note) notes.push(program.note);
  const runs = new Map<HostLine, ContinuityRun[]>(hosts.map((host) => [host, []]));
  const tagged = (host: HostLine, text: string): string => (hosts.length > 1 ? `${host}: ${text}` : text);
  try {
    const untouched = join(work, 'untouched', 'project-r');
    await mkdir(untouched, { recursive: true });
    const base = { stepMs: settings.stepMs, settleMs: settings.settleMs, pluginOptions: settings.pluginOptions, untouched };
    // What R receives from an empty memory: anything more in a shared one came from P or Q.
    const baselines = new Map<HostLine, string>();
    await Promise.all(
      hosts.map(async (host) => {
        const folder = join(work, host, 'empty');
        const empty = program ? await runScenarioProcess(program, { ...base, host, root: join(folder, 'root'), stateDir: join(folder, 'state'), p: null, q: null }, folder, settings.sessionTimeoutMs) : null;
        if (empty && !empty.ok) notes.push(tagged(host, `R in an empty memory: ${empty.reason}; every line R receives counts as leaked`));
        baselines.set(host, empty?.ok ? empty.result.untouched : '');
      }),
    );

    for (const [index, entry] of entries.entries()) {
      settings.onSession?.(entry.name, index, entries.length);
      const other = entries[(index + 1) % entries.length] ?? entry;
      // The projects' folders are the hosts' in common: their names and keys are in the received text.
      const pDirectory = join(work, 'projects', entry.name);
      const qDirectory = join(work, 'projects', other === entry ? `${entry.name}-other` : other.name);
      await mkdir(pDirectory, { recursive: true });
      await mkdir(qDirectory, { recursive: true });
      const p = compactingProject(entry, 'P', pDirectory, `ses_${entry.name}`);
      const q = compactingProject(other, 'Q', qDirectory, `ses_${other.name}_other`);
      if (q.sessionID === p.sessionID) q.sessionID = `${q.sessionID}_other`;
      const plan: SessionPlan = { entry, other, p, q };
      await Promise.all(
        hosts.map(async (host) => {
          const folder = join(work, host, String(index));
          const started = performance.now();
          // `program` is null only when no session can run.
          const outcome: Outcome =
            entry.session.ok && program
              ? await runScenarioProcess(program, { ...base, host, root: join(folder, 'root'), stateDir: join(folder, 'state'), p, q }, folder, settings.sessionTimeoutMs)
              : { ok: false, reason: entry.session.ok ? 'no scenario program' : entry.session.reason };
          runs.get(host)?.push(sessionRun(plan, outcome, performance.now() - started, baselines.get(host) ?? ''));
        }),
      );
    }
  } finally {
    await program?.dispose().catch(() => undefined);
    await rm(work, { recursive: true, force: true }).catch(() => undefined);
  }
  const results = new Map<HostLine, ContinuityResults>();
  for (const [host, list] of runs) results.set(host, { report: reportOf(host, list), runs: list });
  return { results, notes };
}

/**
 * Runs the continuity scenario on every session of a corpus, one session at a time, and scores it.
 *
 * @param entries - the corpus, from `loadCorpus`, in name order; session i's Q compacts session i+1 (the last's, the first).
 * @param options - see {@link ContinuityOptions}.
 */
export async function runContinuity(entries: readonly CorpusEntry[], options: Partial<ContinuityOptions> = {}): Promise<ContinuityResults & { notes: string[] }> {
  const settings: ContinuityOptions = { ...DEFAULT_CONTINUITY_OPTIONS, ...options };
  const { results, notes } = await runHosts(entries, [settings.host], settings);
  const mine = results.get(settings.host) ?? emptyResults(settings.host);
  return { ...mine, notes };
}
