import { chmod, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMaenifoldClient } from '../../../src/main/memory/cli/maenifold-client.js';
import { locateCli } from '../../../src/main/memory/cli/cli-locator.js';
import { createFallbackRunner, INLINE_FALLBACK_CHARS } from '../../../src/main/pool/fallback-runner.js';
import type { TaskRunner } from '../../../src/main/pool/task-runner.js';
import { createDelivery } from '../../../src/main/memory/delivery/delivery.js';
import { createOutbox } from '../../../src/main/memory/delivery/outbox.js';
import { createChainStore } from '../../../src/main/memory/delivery/chain-store.js';
import { createLogger } from '../../../src/main/shared/logger.js';
import { COMPACTION_GUIDELINES } from '../../../src/main/compaction/tagging-guidelines.js';
import { createDoubleRoot, doubleCliPath } from '../../../support/maenifold-double.js';
import { message } from '../../../support/fake-host.js';
import { startHarness, type Harness } from '../../support/plugin-harness.js';
import { filePool } from '../../support/file-pool.js';
import { scratchFolders } from '../../support/scratch.js';

const scratch = scratchFolders('faults');
const cleanups: (() => Promise<unknown>)[] = [];
const pool = filePool();
let harness: Harness | undefined;
/** A plugin without the session context, whose CLI calls at start no test here looks at. */
const startPlugin = (): Promise<Harness> => startHarness({ sessionStart: false }, {}, undefined, { pool: pool() });
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function script(dir: string, name: string, body: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, `#!/bin/sh\n${body}\n`);
  await chmod(path, 0o755);
  return path;
}

const conversation = [
  message('m1', 'user', 'Please add caching to the [[API Gateway]] of the shop, with a shared store for every node.'),
  message('m2', 'assistant', '## Plan\nWe decided to use [[Redis]] for the [[cache layer]] because every node shares it.'),
];

describe('a CLI that misbehaves', () => {
  it('should report a cut-off JSON envelope as unreadable output', async () => {
    const dir = await scratch();
    const partial = await script(dir, 'partial', `printf '{"success":true,"data":{"uri":"memory://x'`);
    const result = await createMaenifoldClient(locateCli(partial, {})).writeNote({ title: 't', content: '[[a]]' }, { timeoutMs: 5_000 });
    expect(result).toMatchObject({ ok: false, error: { code: 'BAD_OUTPUT' } });
  });

  it('should queue writes while the CLI has disappeared and deliver them once it is back', async () => {
    const dir = await scratch();
    const double = await createDoubleRoot();
    cleanups.push(() => double.cleanup());
    const cliPath = join(dir, 'maenifold');
    await writeFile(cliPath, `#!/bin/sh\nexec "${doubleCliPath}" "$@"\n`);
    await chmod(cliPath, 0o755);
    const location = locateCli(cliPath, {});
    let now = Date.now();
    const delivery = createDelivery({
      memory: createMaenifoldClient(location, { ...process.env, ...double.env }),
      outbox: createOutbox(join(dir, 'outbox'), () => now),
      chains: createChainStore(dir),
      logger: createLogger(undefined),
      timeoutMs: 5_000,
      now: () => now,
    });
    await rm(cliPath);
    await delivery.submitNote('demo', { title: 'Gone for a while', content: 'About [[redis]].', folder: 'notes' });
    expect((await readdir(join(dir, 'outbox'))).filter((name) => name.endsWith('.json'))).toHaveLength(1);
    await writeFile(cliPath, `#!/bin/sh\nexec "${doubleCliPath}" "$@"\n`);
    await chmod(cliPath, 0o755);
    now += 60_000;
    await delivery.flush();
    expect((await readdir(join(dir, 'outbox'))).filter((name) => name.endsWith('.json'))).toEqual([]);
    expect((await double.calls()).filter((call) => call.tool === 'WriteMemory')).toHaveLength(1);
  });
});

describe('a host that misbehaves', () => {
  it('should leave only the guidelines when reading the session rejects', async () => {
    harness = await startPlugin();
    harness.host.setMessages('ses_reject', async () => {
      throw new Error('socket hang up');
    });
    const output = { context: [] as string[] };
    await harness.plugin.hooks['experimental.session.compacting']?.({ sessionID: 'ses_reject' }, output);
    expect(output.context).toEqual([COMPACTION_GUIDELINES]);
    await harness.plugin.logger.flush();
    expect(harness.host.linesWith('could not read session ses_reject (failed)')).toHaveLength(1);
  });

  it('should pass a task result on unchanged when prompting the subagent fails', async () => {
    harness = await startPlugin();
    const failing = harness.host.client.session;
    failing.prompt = async () => {
      throw new Error('session busy');
    };
    const output = { title: 't', output: 'The answer.', metadata: { sessionId: 'ses_sub' } };
    await harness.plugin.hooks['tool.execute.after']?.({ tool: 'task', sessionID: 's', callID: 'c', args: {} }, output);
    expect(output.output).toBe('The answer.');
    await harness.plugin.logger.flush();
    expect(harness.host.linesWith('none after 3 attempts')).toHaveLength(1);
  });
});

describe('a pool that cannot serve', () => {
  const unavailable: TaskRunner = { run: async () => ({ ok: false, error: { code: 'POOL_UNAVAILABLE', message: 'workers could not start' } }) };

  it('should run small inputs inline and refuse large ones', async () => {
    const reasons: string[] = [];
    const runner = createFallbackRunner(unavailable, (name, reason) => reasons.push(`${name}: ${reason}`));
    const small = await runner.run('fitContext', { heading: '## H', entries: ['a [[b]]'], entryBudget: 50, totalBudget: 100, encoding: 'o200k_base' });
    expect(small.ok).toBe(true);
    expect(reasons).toEqual(['fitContext: POOL_UNAVAILABLE: workers could not start']);
    const large = await runner.run('fitContext', { heading: '## H', entries: ['x'.repeat(INLINE_FALLBACK_CHARS + 1)], entryBudget: 50, totalBudget: 100, encoding: 'o200k_base' });
    expect(large).toMatchObject({ ok: false, error: { code: 'POOL_UNAVAILABLE' } });
  });

  it('should still inject a context for an ordinary compaction when the pool stops', async () => {
    // A pool of its own: the test stops it.
    harness = await startHarness({ sessionStart: false });
    await harness.plugin.pool?.destroy();
    harness.host.setMessages('ses_nopool', conversation);
    const output = { context: [] as string[] };
    await harness.plugin.hooks['experimental.session.compacting']?.({ sessionID: 'ses_nopool' }, output);
    expect(output.context[1]).toContain('[[redis]]');
  });
});
