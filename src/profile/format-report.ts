/**
 * The text report of `npm run profile`: per phase, a table of stages and the
 * top functions for each thread, and where the profiles are.
 */
import type { PhaseReport, ProfileReport, ThreadReport } from './run-profile.js';

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

function formatThread(thread: ThreadReport, topCount: number): string[] {
  const lines = [`  ${`${thread.thread} (${thread.source === 'profile' ? 'CPU profile' : 'stage timers'})`.padEnd(26)} ${'self ms'.padStart(9)} ${'share'.padStart(7)} ${'calls'.padStart(7)}`];
  for (const row of thread.rows) {
    lines.push(`    ${row.stage.padEnd(24)} ${row.ms.toFixed(1).padStart(9)} ${`${row.share.toFixed(1)}%`.padStart(7)} ${(row.calls === null ? '–' : String(row.calls)).padStart(7)}`);
  }
  const total = thread.rows.reduce((sum, row) => sum + row.ms, 0);
  lines.push(`    ${'total'.padEnd(24)} ${total.toFixed(1).padStart(9)} ${'100.0%'.padStart(7)}`);
  if (thread.top.length > 0) {
    lines.push(`    top functions by self time:`);
    for (const entry of thread.top.slice(0, topCount)) {
      lines.push(`    ${entry.ms.toFixed(1).padStart(8)} ms ${`${entry.share.toFixed(1)}%`.padStart(6)}  ${entry.name}${entry.location ? `  ${entry.location}` : ''}`);
    }
  }
  return lines;
}

function formatPhase(phase: PhaseReport, topCount: number): string[] {
  const { stats } = phase;
  const title = `${phase.phase} compaction: ${median(phase.totalMs).toFixed(0)} ms${phase.totalMs.length > 1 ? ` (median of ${phase.totalMs.length})` : ''}; ${stats.units} messages (${stats.cachedUnits} from cache), ${stats.batches} batch${stats.batches === 1 ? '' : 'es'}, ${Math.round(stats.inputChars / 1024).toLocaleString('en-US')} K characters`;
  const lines = ['', `── ${title} ${'─'.repeat(Math.max(0, 76 - title.length))}`];
  for (const thread of phase.threads) lines.push('', ...formatThread(thread, topCount));
  return lines;
}

/**
 * @param source - what was profiled, for the first line.
 * @param report - what the run found.
 * @param topCount - functions listed per thread.
 */
export function formatProfileReport(source: string, report: ProfileReport, topCount = 8): string {
  const lines = [`Profiled: ${source}; ${report.threads} worker threads; ${report.runs} run${report.runs === 1 ? '' : 's'} of each compaction`];
  if (report.profiles.available) {
    lines.push(`CPU profiles: ${report.outDir} (open them in Chrome DevTools' Performance panel or in speedscope; see docs/profiling.md)`);
    if (report.phases.some((phase) => phase.threads.some((thread) => thread.svg !== null))) lines.push('Flame graphs: each profile drawn in <name>.svg next to it, the time the tables count (open them in a browser)');
  } else {
    lines.push(`CPU profiles: not available under ${report.runtime === 'bun' ? 'Bun' : 'Node'} (${report.profiles.reason ?? 'unknown reason'}); the tables use the stages' own timers`);
  }
  lines.push('Shares are of each thread\'s busy time in the compaction; hand-off is copying to and from the pool (for a worker: its input reaching it once it was free, and its result reaching the hook thread).');
  for (const phase of report.phases) lines.push(...formatPhase(phase, topCount));
  return `${lines.join('\n')}\n`;
}
