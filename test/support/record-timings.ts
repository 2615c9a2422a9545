/**
 * `npm run test:timings`: runs the unit and end-to-end suites and records how long each file took in
 * test/timings.json, the order timings-sequencer.ts starts files in. With report paths as arguments
 * (vitest's JSON reporter output), it records those instead of running anything.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { TIMINGS_FILE } from './timings-sequencer.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** What this script reads of a JSON report. */
interface Report {
  testResults: { name: string; startTime: number; endTime: number }[];
}

/** Seconds per file of a report, to a tenth, by path from the repository root. */
function fileSeconds(report: Report): Record<string, number> {
  return Object.fromEntries(report.testResults.map((file) => [relative(ROOT, file.name), Math.round((file.endTime - file.startTime) / 100) / 10]));
}

/** The seconds per file of the reports at `paths`, merged. */
async function readReports(paths: readonly string[]): Promise<Record<string, number>> {
  const timings: Record<string, number> = {};
  for (const path of paths) Object.assign(timings, fileSeconds(JSON.parse(await readFile(path, 'utf8')) as Report));
  return timings;
}

/** Runs both suites with vitest's JSON reporter and reads their reports. */
async function runSuites(): Promise<Record<string, number>> {
  const folder = await mkdtemp(join(tmpdir(), 'test-timings-'));
  try {
    const reports: string[] = [];
    for (const [name, config] of [['unit', 'vitest.config.ts'], ['e2e', 'vitest.e2e.config.ts']] as const) {
      const output = join(folder, `${name}.json`);
      process.stderr.write(`running the ${name} tests …\n`);
      await run('npx', ['vitest', 'run', '--config', config, '--reporter=json', `--outputFile=${output}`], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
      reports.push(output);
    }
    return await readReports(reports);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

const given = process.argv.slice(2);
const timings = given.length > 0 ? await readReports(given) : await runSuites();
const sorted = Object.fromEntries(Object.entries(timings).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
await writeFile(TIMINGS_FILE, `${JSON.stringify(sorted, null, 2)}\n`);
process.stdout.write(`recorded ${Object.keys(sorted).length} files in ${relative(ROOT, fileURLToPath(TIMINGS_FILE))}\n`);
