import { appendFile, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { watch, type FSWatcher } from 'node:fs';
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFolderIndex, type FolderIndex, type FolderIndexSettings } from '../../../../src/main/memory/files/folder-index.js';
import { watchEventsAreReliable } from '../../../../src/main/memory/files/folder-watch.js';
import { createInlineRunner } from '../../../../src/main/pool/inline-runner.js';
import { createLogger } from '../../../../src/main/shared/logger.js';
import { createFakeHost } from '../../../../support/fake-host.js';
import { scratchFolders } from '../../../support/scratch.js';

const scratch = scratchFolders('folder-watch');
let indexes: FolderIndex[] = [];

afterEach(() => {
  for (const index of indexes) index.close();
  indexes = [];
});

const note = (title: string, concepts: string[]): string => `# ${title}\n\nAbout ${concepts.map((concept) => `[[${concept}]]`).join(' and ')}.\n`;

/** A memory folder of two notes in two folders, and an index over it that has walked it twice (so its watches are settled). */
async function watchedFolder(watchSettings: FolderIndexSettings['watch'] | 'default' = true): Promise<{ memoryDir: string; index: FolderIndex; logged: (text: string) => number }> {
  const root = await scratch();
  const memoryDir = join(root, 'memory');
  await mkdir(join(memoryDir, 'tech'), { recursive: true });
  await writeFile(join(memoryDir, 'tech', 'cache.md'), note('Cache', ['redis']));
  await writeFile(join(memoryDir, 'start.md'), note('Start', ['gateway']));
  const host = createFakeHost();
  const index = createFolderIndex({
    memoryDir,
    stateDir: join(root, 'state'),
    runner: await createInlineRunner(),
    logger: createLogger(host.client),
    freshForMs: 0,
    persistDelayMs: 0,
    ...(watchSettings === 'default' ? {} : { watch: watchSettings }),
  });
  indexes.push(index);
  await index.refresh();
  await index.refresh();
  return { memoryDir, index, logged: (text) => host.linesWith(text).length };
}

describe('createFolderIndex with the folder watch', () => {
  it('should re-read only the file a change event names once its watches are settled', async () => {
    const { memoryDir, index } = await watchedFolder();
    expect(index.lastReport()).toMatchObject({ found: 'walk', total: 2 });
    await appendFile(join(memoryDir, 'tech', 'cache.md'), 'Now with [[valkey]] too.\n');
    const snapshot = await index.refresh();
    expect(index.lastReport()).toMatchObject({ found: 'events', indexed: 1, removed: 0, total: 2 });
    expect(snapshot.postings.get('valkey')).toEqual(new Set(['memory://tech/cache']));
    await index.refresh();
    expect(index.lastReport()).toMatchObject({ found: 'events', indexed: 0, total: 2 });
  });

  it('should see a file written, then one removed, through events, and leave no marker behind', async () => {
    const { memoryDir, index } = await watchedFolder();
    await writeFile(join(memoryDir, 'tech', 'pool.md'), note('Pool', ['piscina']));
    await index.refresh();
    expect(index.lastReport()).toMatchObject({ found: 'events', indexed: 1, total: 3 });
    await rm(join(memoryDir, 'start.md'));
    const snapshot = await index.refresh();
    expect(index.lastReport()).toMatchObject({ found: 'events', indexed: 0, removed: 1, total: 2 });
    expect(snapshot.postings.has('gateway')).toBe(false);
    expect((await readdir(memoryDir)).filter((name) => name.startsWith('.'))).toEqual([]);
  });

  it('should walk again when a folder appears, and index the files already in it', async () => {
    const { memoryDir, index } = await watchedFolder();
    await mkdir(join(memoryDir, 'ops'));
    await writeFile(join(memoryDir, 'ops', 'deploy.md'), note('Deploy', ['kubernetes']));
    const snapshot = await index.refresh();
    expect(index.lastReport()).toMatchObject({ found: 'walk', indexed: 1, total: 3 });
    expect(snapshot.postings.get('kubernetes')).toEqual(new Set(['memory://ops/deploy']));
    // The new folder's watch began after that walk started: one more walk, then events again.
    await index.refresh();
    expect(index.lastReport()).toMatchObject({ found: 'walk', indexed: 0 });
    await appendFile(join(memoryDir, 'ops', 'deploy.md'), 'Rolled out with [[helm]].\n');
    await index.refresh();
    expect(index.lastReport()).toMatchObject({ found: 'events', indexed: 1, total: 3 });
  });

  it('should walk when the WikiLink filter changes, and block what it names', async () => {
    const { memoryDir, index } = await watchedFolder();
    await writeFile(join(memoryDir, '.wikilink-filter.json'), JSON.stringify({ redis: 'too common' }));
    const snapshot = await index.refresh();
    expect(index.lastReport()).toMatchObject({ found: 'walk' });
    expect(snapshot.blocked.has('redis')).toBe(true);
  });

  it('should walk every time, and still find changes, when folders cannot be watched', async () => {
    const refuse = (() => {
      throw Object.assign(new Error('ENOSPC: System limit for number of file watchers reached'), { code: 'ENOSPC' });
    }) as unknown as typeof watch;
    const { memoryDir, index, logged } = await watchedFolder({ watch: refuse });
    await appendFile(join(memoryDir, 'start.md'), 'And [[auth]].\n');
    const snapshot = await index.refresh();
    expect(index.lastReport()).toMatchObject({ found: 'walk', indexed: 1 });
    expect(snapshot.postings.has('auth')).toBe(true);
    expect(logged('ENOSPC')).toBeGreaterThan(0);
  });

  it('should walk when a watch stays silent past the marker timeout', async () => {
    const silent = (() => Object.assign(new EventEmitter(), { close: () => undefined }) as unknown as FSWatcher) as unknown as typeof watch;
    const { memoryDir, index, logged } = await watchedFolder({ watch: silent, markerTimeoutMs: 20 });
    await appendFile(join(memoryDir, 'start.md'), 'And [[auth]].\n');
    const snapshot = await index.refresh();
    expect(index.lastReport()).toMatchObject({ found: 'walk', indexed: 1 });
    expect(snapshot.postings.has('auth')).toBe(true);
    expect(logged('did not confirm')).toBeGreaterThan(0);
  });

  it('should walk when a watch reports an error, then watch again', async () => {
    const watchers: FSWatcher[] = [];
    const failing = ((path: string, options: object, listener: () => void) => {
      const watcher = watch(path, options, listener);
      watchers.push(watcher);
      return watcher;
    }) as unknown as typeof watch;
    const { memoryDir, index, logged } = await watchedFolder({ watch: failing });
    watchers[0]?.emit('error', new Error('the watched folder went away'));
    await appendFile(join(memoryDir, 'start.md'), 'And [[auth]].\n');
    await index.refresh();
    expect(index.lastReport()).toMatchObject({ found: 'walk', indexed: 1 });
    expect(logged('went away')).toBe(1);
    await index.refresh();
    await appendFile(join(memoryDir, 'tech', 'cache.md'), 'And [[valkey]].\n');
    await index.refresh();
    expect(index.lastReport()).toMatchObject({ found: 'events', indexed: 1 });
  });

  it('should walk once the periodic walk is due, whatever the events say', async () => {
    let clock = 1_000_000;
    const { index, logged } = await watchedFolder({ now: () => clock, rescanAfterMs: 60_000 });
    await index.refresh();
    expect(index.lastReport()).toMatchObject({ found: 'events' });
    clock += 60_000;
    await index.refresh();
    expect(index.lastReport()).toMatchObject({ found: 'walk' });
    expect(logged('periodic walk')).toBe(1);
  });
});

describe('watchEventsAreReliable', () => {
  it('should trust Node\'s watcher and not Bun\'s', () => {
    expect(watchEventsAreReliable({})).toBe(true);
    expect(watchEventsAreReliable({ Bun: { version: '1.3.14' } })).toBe(false);
    expect(watchEventsAreReliable()).toBe(!('Bun' in globalThis));
  });

  it('should leave an index in a runtime it does not trust walking on every refresh, seeing each change', async () => {
    vi.stubGlobal('Bun', { version: '1.3.14' });
    try {
      const { memoryDir, index } = await watchedFolder('default');
      await appendFile(join(memoryDir, 'tech', 'cache.md'), 'Now with [[valkey]] too.\n');
      const snapshot = await index.refresh();
      expect(index.lastReport()).toMatchObject({ found: 'walk', indexed: 1, total: 2 });
      expect(snapshot.postings.get('valkey')).toEqual(new Set(['memory://tech/cache']));
      expect((await readdir(memoryDir)).filter((name) => name.startsWith('.'))).toEqual([]);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
