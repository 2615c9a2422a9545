import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const tsx = join(root, 'node_modules', '.bin', 'tsx');
const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** `npm start -- --session <file>`, as the script runs it. */
function preview(file: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(tsx, [join(root, 'src', 'cli', 'preview.ts'), '--session', file, '--no-store'], { cwd: root, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr });
    });
  });
}

describe('npm start --session', () => {
  it('should refuse a file whose messages hold no text, with one line and exit code 1', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'preview-'));
    dirs.push(dir);
    for (const [name, content] of [
      ['not-a-session.json', '{"messages":[{"info":null,"parts":"nope"},42,null]}'],
      ['no-text.json', '{"messages":[{"info":{"role":"user"},"parts":[{"type":"text","text":"  "},{"type":"tool"}]}]}'],
      ['empty.json', '[]'],
    ] as const) {
      const file = join(dir, name);
      await writeFile(file, content);
      const run = await preview(file);
      expect(run.code, name).toBe(1);
      expect(run.stdout, name).toBe('');
      expect(run.stderr.trimEnd().split('\n'), name).toEqual([expect.stringContaining(`${file} is not a session export`)]);
    }
  });

  it('should read a real export', async () => {
    const run = await preview(join(root, 'test', 'fixtures', 'export-sample.json'));
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
  });
});
