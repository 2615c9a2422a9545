import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness as startPlugin, type Harness } from '../../support/plugin-harness.js';
import { filePool } from '../../support/file-pool.js';
import { message } from '../../../support/fake-host.js';
import { WORKING_CONTEXT_HEADING } from '../../../src/main/compaction/compaction.js';
import { countTokens } from '../../../src/core/text/tokens/tokens.js';
import { scratchFolders } from '../../support/scratch.js';

// Registered before the harness's hook: vitest runs after-hooks in reverse order, so the plugin stops first.
const scratch = scratchFolders('xdg-config', 'all');
// One worker for every plugin of the file, no test here depending on a fresh one; its hooks are registered
// before the harness's too, so the plugins stop before it.
const pool = filePool();
const startHarness = (options: Record<string, unknown>, env: Record<string, string>): Promise<Harness> => startPlugin(options, env, undefined, { pool: pool() });
let harness: Harness;
let config: string;

beforeAll(async () => {
  config = await scratch();
  await mkdir(join(config, 'opencode', 'rules'), { recursive: true });
  await writeFile(join(config, 'opencode', 'rules', 'always.md'), 'Answer in British English.');
  await writeFile(join(config, 'opencode', 'rules', 'api.md'), '---\nglobs: ["src/api/**"]\ndescription: API rules\n---\nValidate every request body.');
  harness = await startHarness({}, { XDG_CONFIG_HOME: config, MAENIFOLD_CLI: '' });
});
afterAll(async () => {
  await harness.close();
});

async function system(sessionID: string, entries: string[] = ['You are the build agent.']): Promise<string[]> {
  const output = { system: entries };
  await harness.plugin.hooks['experimental.chat.system.transform']?.({ sessionID, model: {} } as never, output);
  return output.system;
}

async function toolRan(sessionID: string, tool: string, args: Record<string, unknown>): Promise<void> {
  await harness.plugin.hooks['tool.execute.after']?.({ tool, sessionID, callID: 'c', args }, { title: '', output: 'ok', metadata: {} });
}

describe('rules in the system text', () => {
  it('should apply a conditional rule only once a matching file is in the working set, and never twice', async () => {
    const before = (await system('ses_r'))[0] as string;
    expect(before).toContain('Answer in British English.');
    expect(before).not.toContain('Validate every request body.');
    await toolRan('ses_r', 'read', { filePath: '/work/acme-shop/src/api/users.ts' });
    const after = await system('ses_r');
    expect(after).toHaveLength(1);
    expect(after[0]).toContain('### API rules\n\nValidate every request body.');
    const again = await system('ses_r', after);
    expect((again[0] as string).split('Validate every request body.').length - 1).toBe(1);
    // Another session's working set is its own.
    expect((await system('ses_other'))[0]).not.toContain('Validate every request body.');
  });

  it('should be switchable off', async () => {
    const off = await startHarness({ rules: false }, { XDG_CONFIG_HOME: config, MAENIFOLD_CLI: '' });
    try {
      const output = { system: ['base'] };
      await off.plugin.hooks['experimental.chat.system.transform']?.({ sessionID: 's', model: {} } as never, output);
      expect(output.system).toEqual(['base']);
    } finally {
      await off.close();
    }
  });
});

describe('the working context at compaction', () => {
  it('should name the most recent paths, sorted, and share the budget with the preservation context', async () => {
    for (const file of ['src/z.ts', 'src/a.ts', 'src/api/users.ts']) await toolRan('ses_w', 'edit', { filePath: `/work/acme-shop/${file}` });
    await toolRan('ses_w', 'grep', { pattern: 'TODO', path: '/work/acme-shop/src' });
    harness.host.setMessages('ses_w', [
      message('m1', 'user', '## Plan\nWe decided to use [[Redis]] for the [[cache layer]] because every node shares it, and we will not use [[Memcached]].'),
    ]);
    const output = { context: [] as string[] };
    await harness.plugin.hooks['experimental.session.compacting']?.({ sessionID: 'ses_w' }, output);
    const working = output.context[1] as string;
    expect(working).toBe(`${WORKING_CONTEXT_HEADING}\n- src\n- src/a.ts\n- src/api/users.ts\n- src/z.ts`);
    const preserved = output.context[2] as string;
    expect(preserved).toContain('[[redis]]');
    // Files are named once, in the working context.
    expect(preserved).not.toContain('src/a.ts');
    expect(countTokens(working) + countTokens(preserved)).toBeLessThanOrEqual(500);
  });

  it('should keep paths found in the messages for the rules after a restart', async () => {
    harness.host.setMessages('ses_restart', [
      message('m1', 'assistant', '## Work\nWe decided to refactor the [[api-layer]] because the handlers repeat themselves in every single endpoint.', {}, [
        { type: 'tool', tool: 'read', state: { status: 'completed', input: { filePath: '/work/acme-shop/src/api/orders.ts' }, output: 'export {}' } },
      ]),
    ]);
    await harness.plugin.hooks['experimental.session.compacting']?.({ sessionID: 'ses_restart' }, { context: [] });
    expect((await system('ses_restart'))[0]).toContain('Validate every request body.');
  });
});
