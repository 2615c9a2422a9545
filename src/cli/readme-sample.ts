/**
 * `npm run readme:sample`: runs the Quick start's command (`npm start`, the
 * generated demo) and writes the excerpt of its output the README quotes
 * between its `quick-start-output` markers, so the sample is what the command
 * prints, not what someone typed. A test compares the two on every run.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runProcess } from '../main/memory/cli/process-runner.js';

/** The markers around the quoted output in the README. */
export const BEGIN_MARKER = '<!-- quick-start-output:begin -->';
export const END_MARKER = '<!-- quick-start-output:end -->';

/** Lines of a section the excerpt keeps, after its heading. */
const SECTION_LINES: Readonly<Record<string, number>> = { Concepts: 2, Decisions: 6, 'Preservation context': 8 };
/** Parts of the next session's project memory the excerpt keeps: where each starts, and how many lines. */
const NEXT_SESSION_PARTS: ReadonlyArray<readonly [string, number]> = [
  ['## Project Memory', 6],
  ['### Open problems', 3],
  ['### Decisions', 3],
];

/**
 * The part of `npm start`'s output the README quotes: the summary lines, then the first lines of the
 * concepts, decisions and preservation-context sections, `…` where lines are left out. Only parts that
 * do not change from run to run (no temporary folder, timestamp or timing).
 *
 * @param output - the whole standard output of `npm start --silent`.
 */
export function quickStartExcerpt(output: string): string {
  const lines = output.replace(/\r\n/g, '\n').split('\n');
  const kept: string[] = [];
  const head = lines.findIndex((line) => line.startsWith('── '));
  kept.push(...lines.slice(0, head === -1 ? 3 : head).filter((line, index, all) => line !== '' || index < all.length - 1));
  for (const [title, count] of Object.entries(SECTION_LINES)) {
    const at = lines.findIndex((line) => line.startsWith(`── ${title}`));
    if (at === -1) continue;
    // At most `count` lines of the section, never into the next one.
    const body: string[] = [];
    for (const line of lines.slice(at + 1, at + 1 + count)) {
      if (line.startsWith('── ') || line.startsWith('== ')) break;
      body.push(line);
    }
    while (body.at(-1) === '') body.pop();
    kept.push('', lines[at] as string, ...body, '…');
  }
  // What the next session receives: the start of its project memory and of its lists, the run's dates left out.
  const memory = lines.findIndex((line) => line.startsWith('## Project Memory'));
  if (memory !== -1) {
    const at = lines.findLastIndex((line, index) => index < memory && line.startsWith('== '));
    const undated = (line: string): string => line.replace(/\d{4}-\d{2}-\d{2}(?: \d{2}:\d{2})?/g, (date) => (date.length > 10 ? 'YYYY-MM-DD hh:mm' : 'YYYY-MM-DD'));
    kept.push('', ...(at !== -1 ? [lines[at] as string, ''] : []));
    for (const [start, count] of NEXT_SESSION_PARTS) {
      const from = lines.findIndex((line, index) => index >= memory && line.startsWith(start));
      if (from === -1) continue;
      kept.push(...lines.slice(from, from + count).map(undated), '…');
    }
  }
  return kept.join('\n');
}

/**
 * The README with `excerpt` between its markers.
 *
 * @param readme - the README's text.
 * @param excerpt - from {@link quickStartExcerpt}.
 */
export function withExcerpt(readme: string, excerpt: string): string {
  const begin = readme.indexOf(BEGIN_MARKER);
  const end = readme.indexOf(END_MARKER);
  if (begin === -1 || end < begin) throw new Error(`the README has no ${BEGIN_MARKER} … ${END_MARKER} block`);
  return `${readme.slice(0, begin + BEGIN_MARKER.length)}\n\`\`\`\n${excerpt}\n\`\`\`\n${readme.slice(end)}`;
}

/** The quoted block as the README holds it now. */
export function currentExcerpt(readme: string): string | null {
  const begin = readme.indexOf(BEGIN_MARKER);
  const end = readme.indexOf(END_MARKER);
  if (begin === -1 || end < begin) return null;
  return readme.slice(begin + BEGIN_MARKER.length, end).trim().replace(/^```\n/, '').replace(/\n```$/, '');
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Runs the demo exactly as the Quick start says and returns its standard output. */
export async function runQuickStart(): Promise<string> {
  const tsx = join(ROOT, 'node_modules', '.bin', 'tsx');
  // The project's one way to start a process: an argv array, a deadline, bounded output.
  const run = await runProcess(tsx, [join(ROOT, 'src', 'cli', 'preview.ts')], { timeoutMs: 180_000, maxStdoutBytes: 16 * 1024 * 1024 });
  if (run.kind !== 'exited' || run.code !== 0) throw new Error(`npm start did not finish cleanly: ${run.kind === 'exited' ? `exit ${run.code}: ${run.stderr.trim().slice(0, 300)}` : run.kind}`);
  return run.stdout;
}

async function main(): Promise<void> {
  const file = join(ROOT, 'README.md');
  const readme = await readFile(file, 'utf8');
  const excerpt = quickStartExcerpt(await runQuickStart());
  await writeFile(file, withExcerpt(readme, excerpt));
  process.stdout.write(`README.md: Quick start sample written (${excerpt.split('\n').length} lines)\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error: unknown) => {
    process.stderr.write(`readme:sample: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
