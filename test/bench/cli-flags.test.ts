import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, TSX_LOADER, type CliRun } from '../support/cli-process.js';

/** One bench script run through tsx, as `npm run <script> -- <args>` runs it. */
function runScript(script: string, args: string[]): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', TSX_LOADER, join(REPO_ROOT, 'bench', script), ...args], { cwd: REPO_ROOT, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr });
    });
  });
}

describe.each([
  ['run.ts', 'bench'],
  ['real-host.ts', 'bench:host'],
  ['soak.ts', 'soak'],
])('the %s script', (script, name) => {
  it('should print its usage for --help and measure nothing', async () => {
    const run = await runScript(script, ['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^Usage: npm run ${name.replace(':', '\\:')} `));
    expect(run.stderr).toBe('');
  });

  it('should refuse an unknown flag in one line and exit 2', async () => {
    const run = await runScript(script, ['--rounds-of-golf', '3']);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/--rounds-of-golf.*\(see --help\)/);
  });
});

describe('the bench script', () => {
  it('should refuse a runtime it does not know', async () => {
    const run = await runScript('run.ts', ['--runtime', 'deno']);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe('bench: --runtime must be node, bun or both (got "deno") (see --help)');
  });
});
