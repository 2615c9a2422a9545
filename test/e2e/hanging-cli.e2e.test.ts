import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { HookFigure, RunnerFigure } from '../support/hanging-cli.js';

const run = promisify(execFile);
let binary: string;
let scratch: string;

beforeAll(async () => {
  ({ binary } = inject('e2eRuntime'));
  scratch = await mkdtemp(join(tmpdir(), 'hanging-cli-bun-'));
});
afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

type HookRun = { figures: HookFigure[]; started: number; running: number[] };

// The Node twin of these checks is test/main/hanging-cli.test.ts.
describe("a CLI that hangs, under OpenCode's own Bun", () => {
  it('should stop the runner and every hook, and leave no process behind', async () => {
    const probe = fileURLToPath(new URL('./hanging-cli-probe.ts', import.meta.url));
    const { stdout } = await run(binary, ['run', probe, scratch], { env: { ...process.env, BUN_BE_BUN: '1' }, timeout: 240_000, maxBuffer: 16 * 1024 * 1024 });
    const seen = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as {
      runtime: string;
      runner: RunnerFigure[];
      holderLongDeadline: RunnerFigure;
      hooks: Record<'wrapperHangs' | 'grandchild' | 'framesHang', HookRun>;
    };
    console.info(JSON.stringify(seen));
    expect(seen.runtime).toBe('bun');
    expect(seen.runner[0]).toMatchObject({ script: 'wrapper-hangs', kind: 'timeout', started: 2, running: [] });
    expect(seen.runner[1]).toMatchObject({ script: 'grandchild-holds-stdout', kind: 'exited', started: 2, running: [] });
    // A ten-minute deadline, yet the run ended: it ends at the exit, not when the held pipe closes.
    expect(seen.holderLongDeadline).toMatchObject({ kind: 'exited', running: [] });
    for (const key of ['wrapperHangs', 'grandchild'] as const) {
      const hooks = seen.hooks[key];
      expect(hooks.started).toBeGreaterThan(0);
      expect(hooks.running).toEqual([]);
      const result = Object.fromEntries(hooks.figures.map((figure) => [figure.hook, figure.result]));
      expect(result['experimental.chat.system.transform']).toBe('system unchanged');
      expect(result['tool.execute.before (task)']).toBe('prompt unchanged');
      expect(result['tool flame_push']).toContain('Pushed frame');
    }
    const frames = Object.fromEntries(seen.hooks.framesHang.figures.map((figure) => [figure.hook, figure.result]));
    expect(frames['tool flame_push']).toMatch(/^flame_push failed: |the frame store did not answer within 5000 ms/);
    expect(frames['experimental.session.compacting']).toMatch(/context blocks/);
    expect(seen.hooks.framesHang.running).toEqual([]);
  });
});
