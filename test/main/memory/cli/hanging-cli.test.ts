import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRANDCHILD_HOLDS_STDOUT, hookScenarios, runnerScenarios, WRAPPER_HANGS } from '../../../support/hanging-cli.js';
import { testWorkerFile } from '../../../support/plugin-harness.js';
import { createWorkerPool, type WorkerPool } from '../../../../src/main/pool/worker-pool.js';
import { scratchFolders } from '../../../support/scratch.js';

const scratch = scratchFolders('hanging-cli', 'all');
// One worker for the plugins of the hook scenarios: the hangs are the CLI's and the frames file's, not the pool's.
// Loaded before the first test by one small task, not warmed up: no figure here depends on how fast the
// worker extracts, and the warm-up's passes cost about 0.4 s of CPU.
let pool: WorkerPool;
beforeAll(async () => {
  pool = createWorkerPool({ threads: 1, warmUp: false }, await testWorkerFile());
  await pool.run('analyzeUnits', { units: [{ key: null, order: 0, role: 'user', text: 'Load the worker.', tools: [], summary: false }], settings: { projectRoot: null, maxSectionChars: 1000, maxDecisionsPerUnit: 5 } });
});
afterAll(async () => {
  await pool.destroy();
});

// The same scenarios run under OpenCode's Bun in test/e2e/hanging-cli.e2e.test.ts. Each test has its own
// scratch folder, wrappers and plugin, and spends most of its time waiting for a deadline: they run at once.
describe.concurrent('runProcess with a CLI that hangs (Node)', () => {
  it('should stop a hanging wrapper and what it started at the deadline, and answer at the exit when a grandchild holds stdout', async () => {
    const figures = await runnerScenarios(await scratch(), 1_500);
    const [hangs, holder] = figures;
    expect(hangs).toMatchObject({ script: 'wrapper-hangs', kind: 'timeout', started: 2, running: [] });
    // Answered at its exit, not at the deadline: the held pipe did not keep the run open.
    expect(holder).toMatchObject({ script: 'grandchild-holds-stdout', kind: 'exited', started: 2, running: [] });
    expect(holder?.stdout).toContain('Context for CONCEPT: redis');
  });

  it('should answer at the exit whatever the deadline, when a grandchild holds stdout', async () => {
    // A deadline longer than the test's own timeout: only resolving on exit lets this test finish.
    const [holder] = await runnerScenarios(await scratch(), 10 * 60_000, ['grandchild-holds-stdout']);
    expect(holder).toMatchObject({ kind: 'exited', running: [] });
  });
});

describe.concurrent('every hook with a CLI that hangs (Node)', () => {
  for (const [name, cli] of [
    ['a wrapper whose program hangs', WRAPPER_HANGS],
    ['a wrapper whose grandchild holds stdout', GRANDCHILD_HOLDS_STDOUT],
  ] as const) {
    it(`should return, leave the host's output as it was, and leave no process behind: ${name}`, async () => {
      const { figures, started, running } = await hookScenarios(await scratch(), cli, false, { pool });
      expect(started).toBeGreaterThan(0);
      expect(running).toEqual([]);
      const result = Object.fromEntries(figures.map((figure) => [figure.hook, figure.result]));
      expect(result['experimental.chat.system.transform']).toBe('system unchanged');
      expect(result['tool.execute.before (task)']).toBe('prompt unchanged');
      expect(result['tool.execute.after (task)']).toBe('result unchanged');
      expect(result['tool flame_push']).toContain('Pushed frame');
    });
  }

  it('should return from the frame hooks and tools when the frames file cannot be read', async () => {
    const { figures } = await hookScenarios(await scratch(), GRANDCHILD_HOLDS_STDOUT, true, { pool });
    const result = Object.fromEntries(figures.map((figure) => [figure.hook, figure.result]));
    // The store's own read deadline (about 2 s) or the tool's (5 s) ends the wait, whichever comes first: either way one line says why.
    expect(result['tool flame_push']).toMatch(/^flame_push failed: |the frame store did not answer within 5000 ms; it may still complete/);
    expect(result['tool flame_status']).toMatch(/^flame_status failed: |did not answer within 5000 ms/);
    expect(result['experimental.session.compacting']).toMatch(/context blocks/);
  });
});
