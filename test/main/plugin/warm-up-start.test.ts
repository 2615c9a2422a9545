import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createMaenifoldPlugin, type MaenifoldPlugin } from '../../../src/main/plugin/create-plugin.js';
import { WARM_UP_IDLE_MS } from '../../../src/main/pool/worker-pool.js';
import { createFakeHost, type FakeHost } from '../../../support/fake-host.js';
import { testWorkerFile } from '../../support/plugin-harness.js';
import { scratchFolders } from '../../support/scratch.js';

const scratch = scratchFolders('warm-up-start');

/** The plugin as OpenCode starts it, with its own pool of one warmed worker. */
async function startPlugin(dir: string, host: FakeHost): Promise<MaenifoldPlugin> {
  const env = { HOME: dir, MAENIFOLD_ROOT: join(dir, 'root'), MAENIFOLD_STATE_DIR: join(dir, 'state'), MAENIFOLD_STORE: 'files' };
  return createMaenifoldPlugin({ client: host.client, directory: join(dir, 'shop'), worktree: join(dir, 'shop') }, { pool: { threads: 1, warmUp: true } }, env, { workerFile: await testWorkerFile() });
}

async function firstWorkCall(plugin: MaenifoldPlugin, sessionID: string): Promise<string[]> {
  const output = { system: ['You are the build agent.'] };
  await plugin.hooks['experimental.chat.system.transform']?.({ sessionID, model: { id: 'm' } } as never, output);
  return output.system;
}

const idle = (sessionID: string) => ({ event: { type: 'session.idle', properties: { sessionID } } });

describe('createMaenifoldPlugin', () => {
  it("should build session start's block as it loads when none was saved, waking the workers, and warm them only once the host went idle", async () => {
    const dir = await scratch();
    const host = createFakeHost();
    const plugin = await startPlugin(dir, host);
    try {
      let warmed = false;
      void plugin.pool?.ready.then(() => (warmed = true));
      // The build started with the plugin: tracked as background work, done without the warm-up.
      await plugin.background.idle();
      await plugin.logger.flush();
      expect(host.linesWith('session context: no project memory')).toHaveLength(1);
      expect(plugin.pool?.stats().threads).toBe(1);
      // Past the pause a warm-up waits for after a real task, no wave has run.
      const done = plugin.pool?.stats().completed;
      await sleep(WARM_UP_IDLE_MS * 2);
      expect(plugin.pool?.stats().completed).toBe(done);
      await firstWorkCall(plugin, 'ses_first');
      await sleep(WARM_UP_IDLE_MS * 2);
      expect(warmed).toBe(false);
      await plugin.hooks.event?.(idle('ses_first'));
      expect(await plugin.pool?.ready).toMatchObject({ ok: true });
    } finally {
      await plugin.dispose();
    }
  });

  it('should start no worker and read nothing while OpenCode starts when the saved block answers, and build once the first session went idle', async () => {
    const dir = await scratch();
    const before = await startPlugin(dir, createFakeHost());
    await before.background.idle();
    const saved = await firstWorkCall(before, 'ses_before');
    await before.dispose();

    const host = createFakeHost();
    const plugin = await startPlugin(dir, host);
    try {
      await sleep(WARM_UP_IDLE_MS * 2);
      expect(plugin.pool?.stats().threads).toBe(0);
      expect(await firstWorkCall(plugin, 'ses_first')).toEqual(saved);
      await plugin.logger.flush();
      expect(host.linesWith('session context: session ses_first starts with the block built at')).toHaveLength(1);
      expect(host.linesWith('nothing written to memory since')).toHaveLength(1);
      // Nothing was built: the build waits for the host.
      expect(host.linesWith('session context: no project memory')).toHaveLength(0);
      expect(plugin.pool?.stats().threads).toBe(0);

      await plugin.hooks.event?.(idle('ses_first'));
      expect(await plugin.pool?.ready).toMatchObject({ ok: true });
      await plugin.background.idle();
      await plugin.logger.flush();
      expect(host.linesWith('session context: no project memory')).toHaveLength(1);
    } finally {
      await plugin.dispose();
    }
  });
});
