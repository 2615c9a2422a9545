/**
 * How `npm run eval -- --continuity` prints its results: the report rounded
 * as the JSON holds it, a table per session and the pooled rates, and with
 * `--verbose` what was missed or leaked and the plugin's session-context log.
 */
import type { ContinuityRates, ContinuityReport, ContinuityRun } from './continuity.js';
import type { HostComparison } from './continuity-compare.js';
import type { ContinuityScore } from './continuity-score.js';

const round = (value: number, places: number): number => Number(value.toFixed(places));

function roundedRates<R extends ContinuityRates>(rates: R): R {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rates)) {
    // Counts, the host and the digests stay as they are.
    if (typeof value !== 'number' || key === 'sessions' || key === 'ok' || key === 'leaked_items' || key === 'injected_lines') out[key] = value;
    else out[key] = key.endsWith('tokens_mean') ? round(value, 1) : round(value, 3);
  }
  return out as R;
}

/**
 * The report with rates to three places and token means to one, as printed.
 *
 * @param report - from `runContinuity`.
 */
export function roundedContinuity(report: ContinuityReport): ContinuityReport {
  const { same_process: same, ...rest } = report;
  return { ...roundedRates(rest as ContinuityReport), same_process: roundedRates(same) };
}

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return rows
    .map((row) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ').trimEnd())
    .join('\n');
}

function fractions(score: ContinuityScore): string[] {
  const { counts: c } = score;
  return [`${c.decisionHits}/${c.decisionTruth}`, `${c.problemHits}/${c.problemTruth}`, `${c.nextHits}/${c.nextTruth}`, `${c.topicHits}/${c.topicTruth}`, `${score.injected.matched}/${score.injected.lines}`, score.carried ? 'yes' : 'no'];
}

/**
 * The tables: one row per session (P's next session in a new process), the pooled rates of both ways of
 * starting it, and one line per failed session.
 *
 * @param report - rounded.
 * @param runs - the sessions' runs.
 */
export function formatContinuity(report: ContinuityReport, runs: readonly ContinuityRun[]): string {
  const sessions = table([
    ['continuity: session', 'run', 'Q', 'ms', 'tokens', 'decisions', 'problems', 'next', 'topics', 'precision', 'summary', 'leaked'],
    ...runs.map((run) => [
      run.name,
      run.ok ? 'ok' : 'FAILED',
      run.other,
      String(Math.round(run.ms)),
      run.tokens === null ? '-' : String(run.tokens),
      ...fractions(run.score),
      run.ok ? String(run.leaked.fromOther.length + run.leaked.intoUntouched.length) : '-',
    ]),
  ]);
  const failures = runs.filter((run) => !run.ok).map((run) => `${run.name}: ${run.failure ?? 'failed'}`);
  const f2 = (value: number): string => value.toFixed(2);
  const same = report.same_process;
  const pooled = table([
    ['continuity (pooled)', 'new process', `same process (${same.sessions})`],
    ['decision recall', f2(report.decision_recall), f2(same.decision_recall)],
    ['problem recall', f2(report.problem_recall), f2(same.problem_recall)],
    ['next-step recall', f2(report.next_recall), f2(same.next_recall)],
    ['topics', f2(report.topic_rate), f2(same.topic_rate)],
    ['injected-line precision', f2(report.injected_precision), f2(same.injected_precision)],
    ['summary carried', f2(report.summary_carried), f2(same.summary_carried)],
    ['tokens (mean)', report.tokens_mean.toFixed(1), same.tokens_mean.toFixed(1)],
  ]);
  return [sessions, ...failures, '', pooled, '', `${report.ok}/${report.sessions} sessions ok; Project Memory block ${report.block_tokens_mean.toFixed(1)} tokens on average; ${report.leaked_items} leaked lines (OpenCode ${report.host === 'v2' ? '2.x' : '1.x'} host)`, ''].join('\n');
}

/**
 * How the hosts compare: a line per session whose received text differs, with the lines only one host
 * received, and the count of the sessions that received the same text through both.
 *
 * @param comparison - from `compareHosts`.
 */
export function formatHostComparison(comparison: HostComparison): string {
  const { identical, differences } = comparison;
  const lines = [`hosts: ${identical} of ${identical + differences.length} sessions received the same text through 1.x and 2.x`];
  const why = { clock: 'differs only in dates and times', text: 'differs', failed: 'failed through a host' } as const;
  for (const difference of differences) {
    lines.push(`  ${difference.name}: ${why[difference.kind]}`);
    for (const line of difference.onlyV1) lines.push(`    only 1.x: ${line.slice(0, 200)}`);
    for (const line of difference.onlyV2) lines.push(`    only 2.x: ${line.slice(0, 200)}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * What each session missed and leaked, and what went wrong in its scenario.
 *
 * @param runs - the sessions' runs.
 */
export function continuityMisses(runs: readonly ContinuityRun[]): string[] {
  const lines: string[] = [];
  for (const run of runs) {
    lines.push(`continuity ${run.name}${run.ok ? '' : ` (failed: ${run.failure ?? 'unknown'})`}`);
    const list = (label: string, items: readonly string[]): void => {
      for (const item of items) lines.push(`  ${label}: ${item.slice(0, 200)}`);
    };
    list('missed decision', run.score.missed.decisions);
    list('missed problem', run.score.missed.problems);
    list('missed next step', run.score.missed.next);
    list('missed topic', run.score.missed.topics);
    list('unmatched line', run.score.injected.unmatched);
    if (!run.score.carried && run.ok) lines.push('  summary not carried');
    list(`leaked from ${run.other}`, run.leaked.fromOther);
    list('leaked into R', run.leaked.intoUntouched);
    list('note', run.notes);
  }
  return lines;
}

/**
 * The plugin's "session context" log lines of each session, by plugin instance.
 *
 * @param runs - the sessions' runs.
 */
export function sessionContextLog(runs: readonly ContinuityRun[]): string[] {
  const lines: string[] = [];
  for (const run of runs) {
    const found = run.logs.filter((line) => line.message.includes('session context'));
    lines.push(`continuity ${run.name}: ${found.length} session context lines`);
    for (const line of found) lines.push(`  [${line.instance}] ${line.level}: ${line.message}`);
  }
  return lines;
}
