import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { scratchFolders } from '../support/scratch.js';
import { EXPORT_SAMPLE, REPO_ROOT, TSX_LOADER, type CliRun } from '../support/cli-process.js';

const root = REPO_ROOT;
const script = join(root, 'src', 'cli', 'preview.ts');
const tsxLoader = TSX_LOADER;
const sample = EXPORT_SAMPLE;
type Run = CliRun;

const scratch = scratchFolders('preview', 'all');

/** The environment of a run: no INIT_CWD unless given, and TMPDIR set so its temporary folders can be counted. */
function envOf(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  if (!('INIT_CWD' in extra)) delete env['INIT_CWD'];
  return env;
}

function run(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<Run> {
  return new Promise((resolve) => {
    execFile(command, args, { ...options, timeout: 180_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr });
    });
  });
}

/**
 * One worker thread, not warmed up: what these tests read does not depend on how many threads the extraction
 * ran on or how fast, and each thread of a run's pool loads the worker's whole module graph, then warms it up
 * (about a third of a run's work on a small session). The terminal run shows the flags reach the pool.
 */
const SMALL_POOL = ['--threads', '1', '--no-warm-up'];

/**
 * The command line of `npm start -- <args>` without npm and without the tsx launcher's extra process
 * (`tsx` runs a second node with this same loader): one node that compiles the script through tsx.
 */
const previewCommand = (args: string[]): [string, string[]] => {
  // Bundled once per run by the global setup (test-bundles.ts) when it ran: its pool's workers then start
  // from a bundle too, about 0.5 s of CPU each instead of 1.7 s through tsx.
  const bundle = inject('processBundles')?.['src/cli/preview.ts'];
  const argv = [...args, ...SMALL_POOL];
  return [process.execPath, bundle ? [bundle, ...argv] : ['--import', tsxLoader, script, ...argv]];
};

/** `npm start -- <args>` as the script runs it, from `cwd`. */
function preview(args: string[], cwd = root, extra: Record<string, string> = {}): Promise<Run> {
  const [command, argv] = previewCommand(args);
  return run(command, argv, { cwd, env: envOf(extra) });
}

async function previewFolders(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((name) => name.startsWith('maenifold-preview-'));
}

let fromInitCwd: Promise<{ elsewhere: string; temp: string; run: Run }> | undefined;

/**
 * `npm start -- --session session.json --json` as npm runs it from another folder (INIT_CWD set, the clone
 * as working directory), in a TMPDIR of its own: run once and read by the tests of what it prints, since
 * every run that gets past its arguments starts a worker pool.
 */
function sessionFromInitCwd(): Promise<{ elsewhere: string; temp: string; run: Run }> {
  fromInitCwd ??= Promise.all([scratch(), scratch()]).then(async ([elsewhere, temp]) => {
    await copyFile(sample, join(elsewhere, 'session.json'));
    return { elsewhere, temp, run: await preview(['--session', 'session.json', '--json'], root, { INIT_CWD: elsewhere, TMPDIR: temp }) };
  });
  return fromInitCwd;
}

// Each run starts a worker pool; a loaded 2-core machine needs minutes for several in a row.
describe('npm start --session', { timeout: 240_000 }, () => {
  it('should refuse a file whose messages hold no text, with one line and exit code 1', async () => {
    const dir = await scratch();
    // Each is refused before a worker pool starts, so the three runs share nothing but the machine.
    const cases = [
      ['not-a-session.json', '{"messages":[{"info":null,"parts":"nope"},42,null]}'],
      ['no-text.json', '{"messages":[{"info":{"role":"user"},"parts":[{"type":"text","text":"  "},{"type":"tool"}]}]}'],
      ['empty.json', '[]'],
    ] as const;
    const results = await Promise.all(
      cases.map(async ([name, content]) => {
        const file = join(dir, name);
        await writeFile(file, content);
        return { name, file, result: await preview(['--session', file, '--no-store']) };
      }),
    );
    for (const { name, file, result } of results) {
      expect(result.code, name).toBe(1);
      expect(result.stdout, name).toBe('');
      expect(result.stderr.trimEnd().split('\n'), name).toEqual([expect.stringContaining(`${file} is not a session export`)]);
    }
  });

  it('should read a relative path from the folder npm was run in, and add nothing of npm to what the script prints', async () => {
    const elsewhere = await scratch();
    // What a user types in their own folder: npm runs the script in the clone and sets INIT_CWD. A file that
    // is read and then refused names the path it was read from before any worker starts, so the one run
    // through npm and tsx pays for neither a pool nor an extraction; the script's run on a whole export
    // through INIT_CWD is the shared one below.
    await writeFile(join(elsewhere, 'mine.json'), '[]');
    const result = await run('npm', ['--prefix', root, 'start', '--silent', '--', '--session', 'mine.json', '--json', ...SMALL_POOL], {
      cwd: elsewhere,
      env: envOf({}),
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n').filter((line) => line !== '' && !line.startsWith('npm warn'))).toEqual([
      `opencode-maenifold: ${join(elsewhere, 'mine.json')} is not a session export: none of its 0 messages has a text part`,
    ]);
  });

  it('should read a relative path from INIT_CWD, and print one JSON object and nothing else with --json', async () => {
    const { elsewhere, temp, run: result } = await sessionFromInitCwd();
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout.trimEnd().split('\n')).toHaveLength(1);
    const report = JSON.parse(result.stdout) as { source: string; context: { tokens: number; budget: number } };
    expect(report.source).toBe(join(elsewhere, 'session.json'));
    expect(report.context.tokens).toBeGreaterThan(0);
    expect(report.context.tokens).toBeLessThanOrEqual(report.context.budget);
    expect(await previewFolders(temp)).toEqual([]);
  });

  it('should read a relative path from INIT_CWD when it is set, else from the working directory', async () => {
    const elsewhere = await scratch();
    // A file that is read and then refused names the path it was read from, before any worker starts;
    // the shared run above reads a whole export through INIT_CWD and reports its path.
    await writeFile(join(elsewhere, 'mine.json'), '[]');
    const refused = `${join(elsewhere, 'mine.json')} is not a session export`;
    const [fromInit, fromCwd, missing] = await Promise.all([
      preview(['--session', 'mine.json', '--json', '--no-store'], root, { INIT_CWD: elsewhere }),
      preview(['--session', 'mine.json', '--json', '--no-store'], elsewhere),
      preview(['--session', 'mine.json', '--no-store'], root, { INIT_CWD: root }),
    ]);
    expect(fromInit.code).toBe(1);
    expect(fromInit.stderr).toContain(refused);
    expect(fromCwd.code).toBe(1);
    expect(fromCwd.stderr).toContain(refused);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`cannot read ${join(root, 'mine.json')} (ENOENT)`);
  });

  it('should run the file-store walkthrough with --session only when asked', async () => {
    // The file-store walkthrough belongs to the generated demo: a run on a file without --store has none.
    const plain = JSON.parse((await sessionFromInitCwd()).run.stdout) as { store?: unknown };
    expect(plain.store).toBeUndefined();
    const temp = await scratch();
    const walked = await preview(['--session', sample, '--store', '--json'], root, { TMPDIR: temp });
    expect(walked.code).toBe(0);
    const report = JSON.parse(walked.stdout) as { store?: { notes: unknown[]; root: string; removed: boolean } };
    expect(report.store?.notes).toHaveLength(3);
    expect(report.store?.removed).toBe(true);
    expect(existsSync(report.store?.root ?? '/')).toBe(false);
    expect(await previewFolders(temp)).toEqual([]);
    const both = await preview(['--session', sample, '--store', '--no-store'], root, { TMPDIR: temp });
    expect(both.code).toBe(2);
  });
});

let generated: Promise<{ temp: string; run: Run }> | undefined;

/**
 * The size of the generated session of these runs: what they read (the walkthrough's folder, its output,
 * progress lines) does not grow with it, and the walkthrough's three compactions take as long at any size.
 */
const DEMO_SIZE = '10KB';

/**
 * The generated demo, run once without a terminal in a TMPDIR of its own: the tests that read it share
 * it, since every run that gets past its arguments starts a worker pool.
 */
function generatedDemo(): Promise<{ temp: string; run: Run }> {
  generated ??= scratch().then(async (temp) => ({ temp, run: await preview(['--size', DEMO_SIZE], root, { TMPDIR: temp }) }));
  return generated;
}

describe('npm start on the generated session', { timeout: 240_000 }, () => {
  it('should remove its temporary folder on exit, or keep it with --keep and say where', async () => {
    const { temp, run: removed } = await generatedDemo();
    expect(removed.code).toBe(0);
    expect(removed.stderr).toBe('');
    expect(removed.stdout).toMatch(/== File store \(no maenifold needed\): .*maenifold-preview-\w+\/memory \(removed on exit; --keep keeps it\)/);
    expect(removed.stdout).toContain('## Knowledge Graph Context');
    expect(await previewFolders(temp)).toEqual([]);

    const kept = await preview(['--size', DEMO_SIZE, '--json', '--keep'], root, { TMPDIR: temp });
    expect(kept.code).toBe(0);
    const report = JSON.parse(kept.stdout) as { store: { root: string; removed: boolean } };
    expect(report.store.removed).toBe(false);
    expect(kept.stderr).toBe(`kept: ${report.store.root}\n`);
    expect(await previewFolders(temp)).toEqual([report.store.root.slice(temp.length + 1)]);
    expect(existsSync(join(report.store.root, 'memory'))).toBe(true);
  });

  it('should remove its temporary folder when interrupted', async () => {
    const temp = await scratch();
    // Started in its own process group, interrupted as a terminal's Ctrl-C interrupts it: the whole group gets SIGINT.
    // Interrupted once the walkthrough has begun, when the folder holds its state folder: the run registers the
    // folder for removal before it makes that one. The walkthrough keeps its three compactions for about half a
    // second, whatever the size.
    const [command, argv] = previewCommand(['--size', DEMO_SIZE]);
    const child = spawn(command, argv, { cwd: root, env: envOf({ TMPDIR: temp }), detached: true, stdio: 'ignore' });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    let seen: string[] = [];
    let done = false;
    void exited.then(() => (done = true));
    while (!done && seen.length === 0) {
      seen = (await previewFolders(temp)).filter((name) => existsSync(join(temp, name, '.preview-state')));
      if (seen.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(seen).toHaveLength(1);
    process.kill(-(child.pid as number), 'SIGINT');
    const { code, signal } = await exited;
    expect(code === 130 || signal === 'SIGINT').toBe(true);
    expect(await previewFolders(temp)).toEqual([]);
  });

  it('should print progress on stderr only when stderr is a terminal', async () => {
    const { run: quiet } = await generatedDemo();
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe('');
    expect(quiet.stdout).not.toContain('generating a');
    expect(quiet.stdout).not.toContain('extracting with');
    // `script` gives the command a terminal for stdout and stderr.
    const command = previewCommand(['--size', DEMO_SIZE, '--no-store']).flat().join(' ');
    const terminal = await run('script', ['-qec', command, '/dev/null'], { cwd: root, env: envOf({}) });
    expect(terminal.code).toBe(0);
    expect(terminal.stdout).toContain(`generating a ${DEMO_SIZE} session (seed 1)`);
    expect(terminal.stdout).toContain('extracting with 1 worker thread …');
    expect(terminal.stdout).toContain('Preservation context:');
  });
});
