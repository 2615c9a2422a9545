import { spawn } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createChainStore } from '../../../../src/main/memory/delivery/chain-store.js';
import { assertHeld, withFileLock } from '../../../../src/main/shared/file-lock.js';
import { createLogger } from '../../../../src/main/shared/logger.js';
import { createFakeHost } from '../../../../support/fake-host.js';
import { fixtureArgv } from '../../../../support/fixture-process.js';
import { scratchFolders } from '../../../support/scratch.js';
import { stopHolderPastStale } from '../../../support/stale-lock.js';

const STALE_WRITER = fileURLToPath(new URL('../../../fixtures/delivery/stale-chain-writer.ts', import.meta.url));

const stateDir = scratchFolders('chains');

describe('createChainStore', () => {
  it('should keep chains per project across instances', async () => {
    const dir = await stateDir();
    const state = { sessionId: 'session-1-12345', thoughtNumber: 2, updatedAt: 'now' };
    await createChainStore(join(dir, 'nested')).set('app', state);
    const again = createChainStore(join(dir, 'nested'));
    expect(await again.get('app')).toEqual(state);
    expect(await again.get('other')).toBeNull();
    await again.clear('app');
    expect(await again.get('app')).toBeNull();
  });

  it('should keep a damaged file aside as no chain, and serialize concurrent updates', async () => {
    const dir = await stateDir();
    const host = createFakeHost();
    const logger = createLogger(host.client);
    const store = createChainStore(dir, { logger });
    await writeFile(store.file, '{not json');
    expect(await store.get('app')).toBeNull();
    const aside = (await readdir(dir)).filter((name) => name.startsWith('summary-chains.json.corrupt-'));
    expect(aside).toHaveLength(1);
    expect(await readFile(join(dir, aside[0] as string), 'utf8')).toBe('{not json');
    await logger.flush();
    expect(host.linesWith('kept aside')).toHaveLength(1);
    await Promise.all(Array.from({ length: 10 }, (_, index) => store.set(`p${index}`, { sessionId: `s${index}`, thoughtNumber: index, updatedAt: '' })));
    const saved = JSON.parse(await readFile(store.file, 'utf8'));
    expect(Object.keys(saved)).toHaveLength(10);
  });

  it('should refuse the chain write of a sender stopped while another took its chain lock over, so the chain is not rewound', async ({ onTestFinished }) => {
    const dir = await stateDir();
    const lock = join(dir, 'locks', 'chain-demo.lock');
    const sender = spawn(process.execPath, [...fixtureArgv(STALE_WRITER), dir, lock], { stdio: ['ignore', 'pipe', 'inherit'] });
    onTestFinished(() => void sender.kill('SIGKILL'));
    let output = '';
    sender.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => sender.once('exit', (code) => resolve(code)));
    while (!output.includes('held')) await new Promise((resolve) => setTimeout(resolve, 20));
    // Stopped past the lock's stale threshold (dated back, not waited out): this process takes the lock
    // over and moves the chain on.
    await stopHolderPastStale(sender, lock, 2_000);
    const store = createChainStore(dir, { timing: { staleMs: 2_000 } });
    await withFileLock(lock, (signal) => store.update('demo', () => ({ record: { sessionId: 'session-1-1', thoughtNumber: 5, updatedAt: 'fresh' }, result: undefined }), () => assertHeld(signal)), { staleMs: 2_000, waitMs: 30_000 });
    await writeFile(join(dir, 'go'), '');
    sender.kill('SIGCONT');
    expect(await exited).toBe(0);
    expect(output).toContain('refused');
    expect(await store.get('demo')).toMatchObject({ thoughtNumber: 5, updatedAt: 'fresh' });
  });
});
