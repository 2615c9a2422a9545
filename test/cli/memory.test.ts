import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createFileStore } from '../../src/main/memory/files/file-store.js';
import { createInlineRunner } from '../../src/main/pool/inline-runner.js';
import { createLogger } from '../../src/main/shared/logger.js';
import { resolveProject } from '../../src/main/shared/project.js';
import { scratchFolders } from '../support/scratch.js';
import { REPO_ROOT, TSX_LOADER, type CliRun } from '../support/cli-process.js';

/** The package's command as its bin runs it: its bundle when the global setup built one, else the source through tsx. */
function run(args: string[], env: Record<string, string>): Promise<CliRun> {
  const environment: NodeJS.ProcessEnv = { ...process.env, ...env };
  for (const key of Object.keys(environment)) if (key.startsWith('MAENIFOLD_') && !(key in env)) delete environment[key];
  delete environment['INIT_CWD'];
  const bundle = inject('processBundles')?.['src/cli/bin.ts'];
  const argv = bundle ? [bundle] : ['--import', TSX_LOADER, join(REPO_ROOT, 'src', 'cli', 'bin.ts')];
  return new Promise((resolve) => {
    execFile(process.execPath, [...argv, ...args], { env: environment, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr });
    });
  });
}

const scratch = scratchFolders('cli-memory', 'all');
let env: Record<string, string>;
let shop: string;

const WRONG = 'use Redis for the cart sessions';
const RIGHT = 'keep the prices in integer cents';

beforeAll(async () => {
  const base = await scratch();
  shop = join(base, 'shop');
  await mkdir(shop, { recursive: true });
  const project = resolveProject('', shop);
  const store = createFileStore({ root: join(base, 'root'), stateDir: join(base, 'state'), runner: await createInlineRunner(), logger: createLogger(undefined), index: { watch: false } });
  const content = ['# Compaction Summary', '', '**Session**: ses_one', `**Project**: ${project.concept}`, '**Timestamp**: 2026-11-20T10:00:00.000Z', '', '## Key Concepts', '', '- [[cart]]', '', '## Decisions Made', '', `- architecture: ${WRONG}`, `- (summary) ${RIGHT}`, '', '## Open Problems', '', '- the cart total test fails', ''].join('\n');
  const written = await store.writeNote({ title: `Compaction ${project.key.replace(/-/g, ' ')} 20261120 100000000 sesone`, content, folder: project.noteFolder }, { timeoutMs: 5_000 });
  await store.close();
  expect(written.ok).toBe(true);
  env = { MAENIFOLD_ROOT: join(base, 'root'), HOME: base, MAENIFOLD_STATE_DIR: join(base, 'state') };
});

describe('opencode-maenifold memory and forget', { timeout: 120_000 }, () => {
  it('should print the block the next session receives and each item, forget one by id for good, and refuse an unknown one in one line', async () => {
    const [json, text] = await Promise.all([run(['memory', '--project', shop, '--json', '--store', 'files'], env), run(['memory', '--project', shop], env)]);
    expect(json).toMatchObject({ code: 0, stderr: '' });
    const report = JSON.parse(json.stdout) as { project: { key: string }; block: string; tokens: number; items: { id: string; kind: string; source: string; text: string; lastConfirmed: string }[] };
    expect(report.block).toMatch(/^## Project Memory\n/);
    expect(report.block).toContain(`- (2026-11-20) ${RIGHT}`);
    expect(report.tokens).toBeGreaterThan(0);
    const wrong = report.items.find((item) => item.text === `architecture: ${WRONG}`);
    expect(wrong).toMatchObject({ kind: 'decision', source: 'heuristic', lastConfirmed: '2026-11-20' });
    expect(report.items.find((item) => item.text === RIGHT)).toMatchObject({ kind: 'decision', source: 'model' });
    expect(text.code).toBe(0);
    expect(text.stdout.startsWith(`${report.block}\n`)).toBe(true);
    expect(text.stdout).toContain(`${wrong?.id}  decision  heuristic  2026-11-20  2026-11-20 (×1)  architecture: ${WRONG}`);

    const forgot = await run(['forget', wrong?.id ?? '', '--project', shop], env);
    expect(forgot).toEqual({ code: 0, stdout: `forgot ${wrong?.id} (decision, heuristic): architecture: ${WRONG}\n`, stderr: '' });
    const [after, again] = await Promise.all([run(['memory', '--project', shop, '--json'], env), run(['forget', 'no such decision', '--project', shop], env)]);
    const left = JSON.parse(after.stdout) as { block: string; items: { text: string }[] };
    expect(left.block).not.toContain(WRONG);
    expect(left.block).toContain(RIGHT);
    expect(left.items.some((item) => item.text.includes(WRONG))).toBe(false);
    expect(again).toEqual({ code: 1, stdout: '', stderr: 'opencode-maenifold: no item "no such decision" in the project\'s memory\n' });
  });

  it('should say in one line, without a stack, when the maenifold store is asked for and its CLI is missing', async () => {
    const missing = await run(['memory', '--project', shop, '--store', 'maenifold'], { ...env, MAENIFOLD_CLI: join(shop, 'no-maenifold'), PATH: '/nonexistent' });
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toMatch(/^opencode-maenifold: the store is maenifold and its CLI was not found \(looked at \d+ places\); set MAENIFOLD_CLI to its path\n$/);
    const bad = await run(['forget', '--store', 'sqlite', 'x'], env);
    expect(bad).toMatchObject({ code: 2, stdout: '' });
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
  });
});
