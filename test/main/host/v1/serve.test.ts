import { afterEach, describe, expect, it } from 'vitest';
import { serveV1, v1Tools } from '../../../../src/main/host/v1/serve.js';
import { startHarness, type Harness } from '../../../support/plugin-harness.js';
import { filePool } from '../../../support/file-pool.js';
import { createFakeHost } from '../../../../support/fake-host.js';
import { scratchFolders } from '../../../support/scratch.js';
import { createDoubleRoot } from '../../../../support/maenifold-double.js';
import { PROJECT_MEMORY_HEADING } from '../../../../src/core/memory/project-memory.js';
import { COMPACTION_PROMPT_START, ENVIRONMENT_LINE, TITLE_PROMPT_START } from '../../../../src/main/host/v1/call-kinds.js';
import { resolveProject } from '../../../../src/main/shared/project.js';

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

  it('should give a title call and a compaction call none of the plugin’s text, and a work call its Project Memory', async () => {
    const host = createFakeHost();
    const worktree = await scratch();
    const root = await createDoubleRoot();
    const project = resolveProject('', worktree);
    const note = ['# Compaction Summary', '', '**Session**: ses_old', '**Timestamp**: 2026-11-20T10:00:00.000Z', '', '## Decisions Made', '', '- use SQLite for the cart because it ships in one file', ''].join('\n');
    await root.seed({ [`${project.noteFolder}/${project.noteSlugPrefix}20261120-100000000-old`]: note });
    const options = { store: 'files', stateDir: worktree, memoryScope: 'all', pool: { threads: 1, warmUp: false } };
    const hooks = await serveV1({ client: host.client, directory: worktree, worktree }, options, { HOME: worktree, MAENIFOLD_ROOT: root.root }, { pool: pool() });
    const transform = hooks['experimental.chat.system.transform'];
    const call = async (sessionID: string, entry: string): Promise<string[]> => {
      const output = { system: [entry] };
      await transform?.({ sessionID, model: { id: 'm', providerID: 'fake' } }, output);
      return output.system;
    };
    try {
      const title = `${TITLE_PROMPT_START}\n\n<task>\nName the conversation.\n</task>`;
      const compaction = `${COMPACTION_PROMPT_START} Keep every section.`;
      const work = `You are a coding agent.\n${ENVIRONMENT_LINE}\n<env>\n</env>`;
      expect(await call('ses_new', title)).toEqual([title]);
      expect((await call('ses_new', work)).join('\n')).toContain(PROJECT_MEMORY_HEADING);
      expect((await call('ses_new', work)).join('\n')).toContain('use SQLite for the cart');
      expect(await call('ses_new', compaction)).toEqual([compaction]);
      // A compaction prompt the project replaced: the compaction hook just ran for the session.
      await hooks['experimental.session.compacting']?.({ sessionID: 'ses_new' }, { context: [] });
      expect(await call('ses_new', 'Summarize the way this team likes.')).toEqual(['Summarize the way this team likes.']);
      await hooks.event?.({ event: { type: 'session.compacted', properties: { sessionID: 'ses_new' } } });
      expect((await call('ses_new', work)).join('\n')).toContain(PROJECT_MEMORY_HEADING);
    } finally {
      await hooks.dispose?.();
      await root.cleanup();
    }
  });
});
