import { afterEach, describe, expect, it } from 'vitest';
import { serveV1, v1Tools } from '../../../../src/main/host/v1/serve.js';
import { startHarness, type Harness } from '../../../support/plugin-harness.js';
import { filePool } from '../../../support/file-pool.js';
import { createFakeHost } from '../../../../support/fake-host.js';
import { scratchFolders } from '../../../support/scratch.js';

/** What the tests ask of a zod argument. */
type Schema = { safeParse(value: unknown): { success: boolean } };

const pool = filePool();
const scratch = scratchFolders('serve-v1');
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('v1Tools', () => {
  it('should start without the flame_* tools, saying why, when loading the tool helper never finishes', async () => {
    const h = (harness = await startHarness({ store: 'files' }, {}, undefined, { pool: pool() }));
    const building = v1Tools(h.plugin, ['/work/acme-shop'], {}, () => new Promise(() => undefined), 50);
    expect(await building).toBeNull();
    await h.plugin.logger.flush();
    expect(h.host.linesWith("frames: loading @opencode-ai/plugin's tool helper did not finish within 50 ms; the flame_* tools are off")).toHaveLength(1);
  });

  it('should build the port tools with the helper, arguments as zod strings and answers from the port tool', async () => {
    const h = (harness = await startHarness({ store: 'files' }, {}, undefined, { pool: pool() }));
    const tools = await v1Tools(h.plugin, ['/work/acme-shop'], {});
    expect(Object.keys(tools ?? {})).toEqual(['flame_push', 'flame_pop', 'flame_status']);
    const push = tools?.['flame_push'];
    expect((push?.args['goal'] as unknown as Schema | undefined)?.safeParse('a goal').success).toBe(true);
    expect((push?.args['goal'] as unknown as Schema | undefined)?.safeParse(undefined).success).toBe(false);
    expect((push?.args['successCriteria'] as unknown as Schema | undefined)?.safeParse(undefined).success).toBe(true);
    const answer = await tools?.['flame_status']?.execute({}, { sessionID: 'ses_a', messageID: 'm', agent: 'build', directory: '/w', worktree: '/w', abort: new AbortController().signal, metadata: () => undefined, ask: async () => undefined } as never);
    expect(String(answer)).toMatch(/frame/i);
  });
});

describe('serveV1', () => {
  it('should name the 1.x host on the store line and hand OpenCode the hooks, the tools and dispose', async () => {
    const host = createFakeHost();
    const stateDir = await scratch();
    const hooks = await serveV1({ client: host.client, directory: stateDir, worktree: stateDir }, { store: 'files', stateDir, pool: { threads: 1, warmUp: false } }, { HOME: stateDir, MAENIFOLD_ROOT: stateDir }, { pool: pool() });
    try {
      expect(Object.keys(hooks).sort()).toEqual(['dispose', 'event', 'experimental.chat.system.transform', 'experimental.session.compacting', 'tool', 'tool.execute.after', 'tool.execute.before']);
      expect(Object.keys(hooks.tool ?? {})).toEqual(['flame_push', 'flame_pop', 'flame_status']);
    } finally {
      await hooks.dispose?.();
    }
    expect(host.linesWith('store: built-in files under')[0]?.message).toContain('; OpenCode 1.x (server plugin API)');
  });
});
