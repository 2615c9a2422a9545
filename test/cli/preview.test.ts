import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const tsx = join(root, 'node_modules', '.bin', 'tsx');
const script = join(root, 'src', 'cli', 'preview.ts');
const sample = join(root, 'test', 'fixtures', 'export-sample.json');
const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

async function scratch(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'preview-'));
  dirs.push(dir);
  return dir;
}

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

/** `npm start -- <args>` as the script runs it, from `cwd`. */
function preview(args: string[], cwd = root, extra: Record<string, string> = {}): Promise<Run> {
  return run(tsx, [script, ...args], { cwd, env: envOf(extra) });
}

async function previewFolders(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((name) => name.startsWith('maenifold-preview-'));
}

// Each run starts a worker pool; a loaded 2-core machine needs minutes for several in a row.
describe('npm start --session', { timeout: 240_000 }, () => {
  it('should refuse a file whose messages hold no text, with one line and exit code 1', async () => {
    const dir = await scratch();
    for (const [name, content] of [
      ['not-a-session.json', '{"messages":[{"info":null,"parts":"nope"},42,null]}'],
      ['no-text.json', '{"messages":[{"info":{"role":"user"},"parts":[{"type":"text","text":"  "},{"type":"tool"}]}]}'],
      ['empty.json', '[]'],
    ] as const) {
      const file = join(dir, name);
      await writeFile(file, content);
      const result = await preview(['--session', file, '--no-store']);
      expect(result.code, name).toBe(1);
      expect(result.stdout, name).toBe('');
      expect(result.stderr.trimEnd().split('\n'), name).toEqual([expect.stringContaining(`${file} is not a session export`)]);
    }
  });

  it('should read a relative path from the folder npm was run in, and print one JSON object and nothing else', async () => {
    const elsewhere = await scratch();
    const temp = await scratch();
    await copyFile(sample, join(elsewhere, 'session.json'));
    // What a user types in their own folder: npm runs the script in the clone and sets INIT_CWD.
    const result = await run('npm', ['--prefix', root, 'start', '--silent', '--', '--session', 'session.json', '--json'], {
      cwd: elsewhere,
      env: envOf({ TMPDIR: temp }),
    });
    expect(result.stderr.split('\n').filter((line) => line !== '' && !line.startsWith('npm warn'))).toEqual([]);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { source: string; store?: unknown; context: { tokens: number; budget: number } };
    expect(report.source).toBe(join(elsewhere, 'session.json'));
    // The file-store walkthrough belongs to the generated demo.
    expect(report.store).toBeUndefined();
    expect(report.context.tokens).toBeGreaterThan(0);
    expect(report.context.tokens).toBeLessThanOrEqual(report.context.budget);
    expect(await previewFolders(temp)).toEqual([]);
  });

  it('should read a relative path from INIT_CWD when it is set, else from the working directory', async () => {
    const elsewhere = await scratch();
    await copyFile(sample, join(elsewhere, 'mine.json'));
    const fromInit = await preview(['--session', 'mine.json', '--json', '--no-store'], root, { INIT_CWD: elsewhere });
    expect(fromInit.code).toBe(0);
    expect((JSON.parse(fromInit.stdout) as { source: string }).source).toBe(join(elsewhere, 'mine.json'));
    const fromCwd = await preview(['--session', 'mine.json', '--json', '--no-store'], elsewhere);
    expect(fromCwd.code).toBe(0);
    expect((JSON.parse(fromCwd.stdout) as { source: string }).source).toBe(join(elsewhere, 'mine.json'));
    const missing = await preview(['--session', 'mine.json', '--no-store'], root, { INIT_CWD: root });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`cannot read ${join(root, 'mine.json')} (ENOENT)`);
  });

  it('should run the file-store walkthrough with --session only when asked', async () => {
    const temp = await scratch();
    const plain = await preview(['--session', sample], root, { TMPDIR: temp });
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain('Preservation context:');
    expect(plain.stdout).not.toContain('== File store');
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

describe('npm start on the generated session', { timeout: 240_000 }, () => {
  it('should remove its temporary folder on exit, or keep it with --keep and say where', async () => {
    const temp = await scratch();
    const removed = await preview(['--size', '100KB'], root, { TMPDIR: temp });
    expect(removed.code).toBe(0);
    expect(removed.stderr).toBe('');
    expect(removed.stdout).toMatch(/== File store \(no maenifold needed\): .*maenifold-preview-\w+\/memory \(removed on exit; --keep keeps it\)/);
    expect(removed.stdout).toContain('## Knowledge Graph Context');
    expect(await previewFolders(temp)).toEqual([]);

    const kept = await preview(['--size', '100KB', '--json', '--keep'], root, { TMPDIR: temp });
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
    const child = spawn(tsx, [script, '--size', '1MB'], { cwd: root, env: envOf({ TMPDIR: temp }), detached: true, stdio: 'ignore' });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    let seen: string[] = [];
    let done = false;
    void exited.then(() => (done = true));
    while (!done && seen.length === 0) {
      seen = await previewFolders(temp);
      if (seen.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(seen).toHaveLength(1);
    process.kill(-(child.pid as number), 'SIGINT');
    const { code, signal } = await exited;
    expect(code === 130 || signal === 'SIGINT').toBe(true);
    expect(await previewFolders(temp)).toEqual([]);
  });

  it('should print progress on stderr only when stderr is a terminal', async () => {
    const quiet = await preview(['--size', '100KB', '--no-store']);
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe('');
    expect(quiet.stdout).not.toContain('extracting with');
    // `script` gives the command a terminal for stdout and stderr.
    const command = `${tsx} ${script} --size 100KB --no-store`;
    const terminal = await run('script', ['-qec', command, '/dev/null'], { cwd: root, env: envOf({}) });
    expect(terminal.code).toBe(0);
    expect(terminal.stdout).toContain('generating a 100KB session (seed 1)');
    expect(terminal.stdout).toContain('extracting with');
    expect(terminal.stdout).toContain('Preservation context:');
  });
});
