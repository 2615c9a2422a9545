import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import entry from '../../../plugin/maenifold.js';
import { createDoubleRoot, type DoubleRoot } from '../../../support/maenifold-double.js';
import { createFakeHost, message } from '../../../support/fake-host.js';
import { scratchFolders } from '../../support/scratch.js';

const scratch = scratchFolders('maenifold-dispose');
let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.unstubAllEnvs();
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

/** The environment the default export reads, pointing at the double and a fresh state folder, with every CLI call slowed. */
async function environment(double: DoubleRoot, stateDir: string): Promise<void> {
  for (const key of Object.keys(process.env)) if (key.startsWith('MAENIFOLD_')) vi.stubEnv(key, undefined);
  for (const [key, value] of Object.entries({ ...double.env, MAENIFOLD_STATE_DIR: stateDir, HOME: stateDir, MAENIFOLD_DOUBLE_FAULT: 'slow:400' })) vi.stubEnv(key, value);
}

describe('hooksForHost', () => {
  it('should give OpenCode a dispose hook, through the default export, that waits for a summary on its way to maenifold', async () => {
    const double = await createDoubleRoot();
    const stateDir = await scratch();
    cleanup.push(() => double.cleanup());
    await environment(double, stateDir);
    const host = createFakeHost();
    const hooks = await entry.server(
      { client: host.client, directory: '/work/acme-shop', worktree: '/work/acme-shop' } as Parameters<typeof entry.server>[0],
      { pool: { threads: 1, warmUp: false }, sessionStart: false, persistTimeoutMs: 30_000 },
    );
    expect(typeof hooks.dispose).toBe('function');
    host.setMessages('ses_a', [
      message('m1', 'user', 'work on the [[cache-layer]]'),
      message('m2', 'user', 'compact', {}, [{ type: 'compaction', auto: false }]),
      message('m3', 'assistant', 'DISPOSE-SUMMARY: the [[cache-layer]] uses [[redis]].', { summary: true, mode: 'compaction' }),
    ]);
    // The event hook returns at once; the summary goes on in the background, through a CLI that answers slowly.
    await hooks.event?.({ event: { type: 'session.compacted', properties: { sessionID: 'ses_a' } } as never });
    await hooks.dispose?.();
    const thoughts = (await double.calls()).filter((call) => call.tool === 'SequentialThinking');
    expect(thoughts.map((call) => JSON.stringify(call.payload)).join('\n')).toContain('DISPOSE-SUMMARY');
    const outbox = await readdir(join(stateDir, 'outbox')).catch(() => []);
    expect(outbox.filter((name) => name.endsWith('.json'))).toEqual([]);
    // Called again (OpenCode calls it once; a second caller shares the first call's work), it neither throws nor waits again.
    await expect(hooks.dispose?.()).resolves.toBeUndefined();
  });

  it('should register no hooks, dispose included, when disabled', async () => {
    const host = createFakeHost();
    expect(await entry.server({ client: host.client } as Parameters<typeof entry.server>[0], { enabled: false })).toEqual({});
  });
});
