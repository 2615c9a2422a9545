import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createMaenifoldPlugin } from '../../../src/main/plugin/create-plugin.js';
import { WARM_UP_IDLE_MS } from '../../../src/main/pool/worker-pool.js';
import { createFakeHost } from '../../../support/fake-host.js';
import { testWorkerFile } from '../../support/plugin-harness.js';
import { scratchFolders } from '../../support/scratch.js';

const scratch = scratchFolders('warm-up-start');

describe('createMaenifoldPlugin', () => {
  it("should build session start's block as it loads, and warm its pool only once the first work call is answered", async () => {
    const dir = await scratch();
    const host = createFakeHost();
    const env = { HOME: dir, MAENIFOLD_ROOT: join(dir, 'root'), MAENIFOLD_STATE_DIR: join(dir, 'state'), MAENIFOLD_STORE: 'files' };
    // Its own pool, as OpenCode starts it: one worker, warmed.
    const plugin = await createMaenifoldPlugin({ client: host.client, directory: join(dir, 'shop'), worktree: join(dir, 'shop') }, { pool: { threads: 1, warmUp: true } }, env, { workerFile: await testWorkerFile() });
    try {
      let warmed = false;
      void plugin.pool?.ready.then(() => (warmed = true));
      // The build started with the plugin: tracked as background work, done without the warm-up.
      await plugin.background.idle();
      await plugin.logger.flush();
      expect(host.linesWith('session context: no project memory')).toHaveLength(1);
      // Past the pause a warm-up waits for after a real task, no wave has run.
      const done = plugin.pool?.stats().completed;
      await sleep(WARM_UP_IDLE_MS * 2);
      expect(plugin.pool?.stats().completed).toBe(done);
      expect(warmed).toBe(false);
      await plugin.hooks['experimental.chat.system.transform']?.({ sessionID: 'ses_first', model: { id: 'm' } } as never, { system: ['You are the build agent.'] });
      expect(await plugin.pool?.ready).toMatchObject({ ok: true });
    } finally {
      await plugin.dispose();
    }
  });
});
