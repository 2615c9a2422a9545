import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createChainStore } from '../../../../src/main/memory/delivery/chain-store.js';
import { createLogger } from '../../../../src/main/shared/logger.js';
import { createFakeHost } from '../../../support/fake-host.js';

const dirs: string[] = [];
async function stateDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'chains-'));
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

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
});
