/**
 * How `npm run eval -- --sequence` prints its results: the report rounded as
 * the JSON holds it, a row per project and the pooled rates, and with
 * `--verbose` what each next session missed and the lines that matched nothing.
 */
import type { SequenceReport, SequenceRun } from './sequence.js';

const round = (value: number, places: number): number => Number(value.toFixed(places));

/**
 * The report with rates to three places and token means to one, as printed.
 *
 * @param report - from `runSequence`.
 */
export function roundedSequence(report: SequenceReport): SequenceReport {
  const perProject = Object.fromEntries(
    Object.entries(report.per_project).map(([project, figures]) => [project, { ...figures, needed_recall: round(figures.needed_recall, 3), injected_precision: round(figures.injected_precision, 3) }]),
  );
  return { ...report, needed_recall: round(report.needed_recall, 3), injected_precision: round(report.injected_precision, 3), tokens_mean: round(report.tokens_mean, 1), block_tokens_mean: round(report.block_tokens_mean, 1), per_project: perProject };
}

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return rows
    .map((row) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ').trimEnd())
    .join('\n');
}

/**
 * The table: one row per project, then the pooled figures and one line per failed project.
 *
 * @param report - rounded.
 * @param runs - the projects' runs.
 */
export function formatSequence(report: SequenceReport, runs: readonly SequenceRun[]): string {
  const rows = table([
    ['sequence: project', 'run', 'sessions', 'ms', 'tokens', 'block', 'needed', 'precision'],
    ...runs.map((run) => [
      run.project,
      run.ok ? 'ok' : 'FAILED',
      String(run.earlier.length),
      String(Math.round(run.ms)),
      run.tokens === null ? '-' : String(run.tokens),
      run.blockTokens === null ? '-' : String(run.blockTokens),
      `${run.score.hits}/${run.score.total}`,
      `${run.score.injected.matched}/${run.score.injected.lines}`,
    ]),
  ]);
  const failures = runs.filter((run) => !run.ok).map((run) => `${run.project}: ${run.failure ?? 'failed'}`);
  return [
    rows,
    ...failures,
    '',
    `needed recall ${report.needed_recall.toFixed(2)}, injected-line precision ${report.injected_precision.toFixed(2)} (${report.injected_lines} lines), ${report.tokens_mean.toFixed(1)} tokens on average (the Project Memory block ${report.block_tokens_mean.toFixed(1)})`,
    `${report.ok}/${report.projects} projects ok, ${report.sessions} earlier sessions compacted (OpenCode ${report.host === 'v2' ? '2.x' : '1.x'} host)`,
    '',
  ].join('\n');
}

/**
 * What each project's next session missed, the lines that matched nothing it needed, and what went wrong.
 *
 * @param runs - the projects' runs.
 */
export function sequenceMisses(runs: readonly SequenceRun[]): string[] {
  const lines: string[] = [];
  for (const run of runs) {
    lines.push(`sequence ${run.project} (${run.earlier.join(', ')} → ${run.later})${run.ok ? '' : ` (failed: ${run.failure ?? 'unknown'})`}`);
    for (const item of run.score.missed) lines.push(`  missed: ${item.slice(0, 200)}`);
    for (const line of run.score.injected.unmatched) lines.push(`  unmatched line: ${line.slice(0, 200)}`);
    for (const note of run.notes) lines.push(`  note: ${note.slice(0, 200)}`);
  }
  return lines;
}
