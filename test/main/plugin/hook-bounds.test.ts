import { mkdir } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { COMPACTION_GUIDELINES } from '../../../src/main/compaction/tagging-guidelines.js';
import { frameFileFor } from '../../../src/main/frames/frame-store.js';
import { hungFile } from '../../support/hung-file.js';
import { startHarness as startPlugin, type Harness } from '../../support/plugin-harness.js';
import { filePool } from '../../support/file-pool.js';

// One worker for every plugin of the file: no test here depends on a fresh one.
const pool = filePool();
const startHarness = (options: Record<string, unknown>): Promise<Harness> => startPlugin(options, {}, undefined, { pool: pool() });

let harness: Harness | undefined;
let release: (() => Promise<void>) | undefined;
afterEach(async () => {
  await release?.();
  release = undefined;
  await harness?.close();
  harness = undefined;
});

/** A plugin whose frames file never answers a read (the frame parts then wait on the store). */
async function withHungFrames(options: Record<string, unknown>): Promise<Harness> {
  const h = (harness = await startHarness(options));
  const file = frameFileFor(h.stateDir, '/work/acme-shop');
  await mkdir(dirname(file), { recursive: true });
  release = (await hungFile(dirname(file), basename(file))).release;
  return h;
}

describe('createMaenifoldPlugin', () => {
  // The frame part alone keeps within its own deadline (the store gives up after about a second);
  // after a main part that used its whole deadline, the hook's one bound cuts it first.
  it('should bound the system transform as a whole, leaving the system text untouched by the part cut off', async () => {
    const h = await withHungFrames({ sessionStart: false, contextTotalTimeoutMs: 100 });
    const system = ['You are a coding agent.'];
    const output = { system };
    await h.plugin.hooks['experimental.chat.system.transform']?.({ sessionID: 'ses_root', model: { id: 'gpt-4o' } }, output);
    await h.plugin.logger.flush();
    const cut = h.host.linesWith('hook experimental.chat.system.transform:');
    expect(cut.map((line) => line.message)).toEqual([expect.stringMatching(/^hook experimental\.chat\.system\.transform: frames did not finish within the hook's \d+ ms; its changes were dropped$/)]);
    expect(output.system).toBe(system);
    expect(system).toEqual(['You are a coding agent.']);
  });

  it('should bound the compacting hook as a whole: what compaction added stays, the frame part cut off adds nothing', async () => {
    const h = await withHungFrames({ sessionStart: false, compactionDeadlineMs: 100 });
    // The host never lists the messages: compaction gives up at its own deadline with the guidelines.
    h.host.setMessages('ses_root', () => new Promise<unknown[]>(() => undefined));
    const context: string[] = [];
    const output: { context: string[]; prompt?: string } = { context };
    await h.plugin.hooks['experimental.session.compacting']?.({ sessionID: 'ses_root' }, output);
    await h.plugin.logger.flush();
    expect(h.host.linesWith('compaction: could not read session ses_root (timeout)')).toHaveLength(1);
    expect(h.host.linesWith('hook experimental.session.compacting:').map((line) => line.message)).toEqual([
      expect.stringMatching(/^hook experimental\.session\.compacting: frames did not finish within the hook's \d+ ms; its changes were dropped$/),
    ]);
    expect(output.context).toBe(context);
    expect(output).toEqual({ context: [COMPACTION_GUIDELINES] });
  });

  it('should stop waiting for background work that never ends when it is disposed, naming it in one line', async () => {
    const h = (harness = await startHarness({ sessionStart: false, persistTimeoutMs: 100 }));
    // What the plugin started on its own (the outbox) first, so only the stuck job is left.
    await h.plugin.background.idle();
    h.plugin.background.run('stuck job', () => new Promise(() => undefined));
    await h.plugin.dispose();
    await h.plugin.logger.flush();
    expect(h.host.linesWith('shutdown:').map((line) => line.message)).toEqual(['shutdown: stopped waiting for background work after 100 ms; still running: stuck job']);
  }, 20_000);
});
