import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { generateSession } from '../../src/synth/session-generator.js';
import { scratchFolders } from '../support/scratch.js';
import { EXPORT_SAMPLE, REPO_ROOT, TSX_LOADER, type CliRun } from '../support/cli-process.js';

const root = REPO_ROOT;
const tsxLoader = TSX_LOADER;
const sample = EXPORT_SAMPLE;
type Run = CliRun;

/**
 * Runs a script of src/cli as its command runs it, from `cwd`, without the INIT_CWD an npm script would set:
 * its bundle when the global setup built one (test-bundles.ts: the same sources, and a pool whose workers
 * start from a bundle too), else the source through tsx.
 */
function runScript(script: string, args: string[], cwd: string, extra: Record<string, string> = {}): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  delete env['INIT_CWD'];
  const bundle = inject('processBundles')?.[`src/cli/${script}`];
  const argv = bundle ? [bundle] : ['--import', tsxLoader, join(root, 'src', 'cli', script)];
  return new Promise((resolve) => {
    execFile(process.execPath, [...argv, ...args], { cwd, env, timeout: 180_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr });
    });
  });
}

let elsewhere: string;

const scratch = scratchFolders('bin-elsewhere', 'all');
beforeAll(async () => {
  elsewhere = await scratch();
  await writeFile(join(elsewhere, 'session.json'), await readFile(sample));
});

// Each report starts a worker pool; a loaded 2-core machine needs a while.
describe('opencode-maenifold, run from a folder other than the package', { timeout: 240_000 }, () => {
  it('should write one JSON object for report --json, reading the relative path from the working directory', async () => {
    // One worker thread, not warmed up: what the report holds does not depend on how its pool ran.
    const result = await runScript('bin.ts', ['report', 'session.json', '--json', '--threads', '1', '--no-warm-up'], elsewhere);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { source: string; context: unknown };
    expect(report.source).toBe(join(elsewhere, 'session.json'));
    expect(result.stdout.trimEnd().split('\n')).toHaveLength(1);
  });

  it('should write the export for synth as JSON on stdout, or into --out read from the working directory', async () => {
    const [printed, written] = await Promise.all([
      runScript('bin.ts', ['synth', '--size', '20KB', '--seed', '3'], elsewhere),
      runScript('bin.ts', ['synth', '--size', '20KB', '--seed', '3', '--out', 'synthetic.json'], elsewhere),
    ]);
    const expected = generateSession({ seed: 3, targetBytes: 20 * 1024 });
    expect(printed).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(printed.stdout)).toEqual(expected);
    expect(written).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(JSON.parse(await readFile(join(elsewhere, 'synthetic.json'), 'utf8'))).toEqual(expected);
  });

  it('should print one line and exit non-zero for every failure', async () => {
    const runs = await Promise.all([
      runScript('bin.ts', ['report', 'missing.json'], elsewhere),
      runScript('bin.ts', ['report'], elsewhere),
      runScript('bin.ts', ['compact'], elsewhere),
      runScript('bin.ts', ['synth', '--size', '1KB', '--out', join(elsewhere, 'no-such-folder', 'x.json')], elsewhere),
    ]);
    expect(runs.map((run) => [run.code, run.stdout, run.stderr.trimEnd().split('\n').length])).toEqual([
      [1, '', 1],
      [2, '', 1],
      [2, '', 1],
      [1, '', 1],
    ]);
    expect(runs[0]?.stderr).toBe(`opencode-maenifold: cannot read ${join(elsewhere, 'missing.json')} (ENOENT)\n`);
    expect(runs[3]?.stderr).toMatch(/^opencode-maenifold: cannot write .*x\.json \(ENOENT\)\n$/);
  });
});

describe('npm run eval without a corpus', () => {
  it('should say in one line on stderr what a corpus is and how to make one, and exit 1', async () => {
    const result = await runScript('eval.ts', [], elsewhere, { MAENIFOLD_EVAL_CORPUS: join(elsewhere, 'no-corpus-here') });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^opencode-maenifold eval: no corpus: a corpus is a folder of your own session exports, sessions\/NAME\.json .*truth\/NAME\.json.*npm run eval -- --corpus DIR$/);
  });
});
