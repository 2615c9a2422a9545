import { readdir, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFrameStore, frameFileFor } from '../../../src/main/frames/frame-store.js';
import { beginPop, pushFrame } from '../../../src/main/frames/frame-state.js';
import { createLogger } from '../../../src/main/shared/logger.js';
import { createFakeHost } from '../../../support/fake-host.js';
import { hungFile } from '../../support/hung-file.js';
import { scratchFolders } from '../../support/scratch.js';

const stateDir = scratchFolders('frames');

const push = (sessionID: string) => (tree: Parameters<typeof pushFrame>[0]) =>
  pushFrame(tree, { parentID: 'ses_root', sessionID, goal: `goal of ${sessionID}`, successCriteria: '', now: new Date().toISOString() });

describe('frameFileFor', () => {
  it('should name the file by a hash of the worktree, inside the state folder', () => {
    const file = frameFileFor('/state', '../../etc/passwd');
    expect(file).toMatch(/^\/state\/frames\/[0-9a-f]{24}\.json$/);
    expect(frameFileFor('/state', '/work/a')).not.toBe(frameFileFor('/state', '/work/b'));
  });
});

describe('createFrameStore', () => {
  it('should keep the tree across instances (a restart) and leave no temporary file', async () => {
    const file = frameFileFor(await stateDir(), '/work/acme');
    const store = createFrameStore(file);
    await store.update(push('ses_a'));
    await store.update((tree) => beginPop(tree, { sessionID: 'ses_a', outcome: 'completed', results: 'done', artifacts: ['src/a.ts'], now: 'later' }));
    const restarted = createFrameStore(file);
    const tree = await restarted.read();
    expect(Object.keys(tree.frames).sort()).toEqual(['ses_a', 'ses_root']);
    expect(tree.frames['ses_a']).toMatchObject({ status: 'completing', results: 'done', artifacts: ['src/a.ts'] });
    expect(await readdir(join(file, '..'))).toEqual([file.split('/').at(-1)]);
  });

  it('should keep a damaged file aside (logged once), drop malformed frames, and never write over the damaged one', async () => {
    const file = frameFileFor(await stateDir(), '/work/acme');
    const host = createFakeHost();
    const logger = createLogger(host.client);
    await mkdir(join(file, '..'), { recursive: true });
    await writeFile(file, '{not json');
    expect(Object.keys((await createFrameStore(file, { logger }).read()).frames)).toEqual([]);
    const aside = (await readdir(join(file, '..'))).filter((name) => name.includes('.corrupt-'));
    expect(aside).toHaveLength(1);
    expect(await readFile(join(file, '..', aside[0] as string), 'utf8')).toBe('{not json');
    await writeFile(file, JSON.stringify({ frames: { ses_x: { sessionID: 'ses_x', status: 'weird' }, __proto__: { polluted: true } } }));
    const store = createFrameStore(file, { logger });
    expect(Object.keys((await store.read()).frames)).toEqual([]);
    await store.update(push('ses_b'));
    const saved = JSON.parse(await readFile(file, 'utf8'));
    expect(Object.keys(saved.frames).sort()).toEqual(['ses_b', 'ses_root']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    await logger.flush();
    expect(host.linesWith('kept aside')).toHaveLength(1);
  });

  it('should fail a read or an update of a file that never answers within its deadline, and work again once it does', async () => {
    const dir = await stateDir();
    const file = frameFileFor(dir, '/work/acme');
    await mkdir(join(file, '..'), { recursive: true });
    const hung = await hungFile(join(file, '..'), file.split('/').at(-1) as string);
    const store = createFrameStore(file, { timing: { holdMs: 200 } });
    await expect(store.read()).rejects.toMatchObject({ code: 'STATE_TIMEOUT' });
    await expect(store.update(push('ses_a'))).rejects.toMatchObject({ code: 'STATE_TIMEOUT' });
    await hung.release();
    await rm(file);
    // The read the deadline gave up on returns once released, on a thread of libuv's pool: on a loaded
    // machine a little after `release` has. Until then the store refuses the file, as it must.
    const deadline = Date.now() + 10_000;
    for (;;) {
      const refused = await store.update(push('ses_a')).then(
        () => false,
        (error: unknown) => {
          if (!(error instanceof Error && error.message.includes('has not returned')) || Date.now() > deadline) throw error;
          return true;
        },
      );
      if (!refused) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(Object.keys((await createFrameStore(file).read()).frames).sort()).toEqual(['ses_a', 'ses_root']);
  });

  it('should apply concurrent updates one at a time without losing any', async () => {
    const file = frameFileFor(await stateDir(), '/work/acme');
    const store = createFrameStore(file);
    await Promise.all(Array.from({ length: 10 }, (_, index) => store.update(push(`ses_${index}`))));
    const saved = JSON.parse(await readFile(file, 'utf8'));
    expect(Object.keys(saved.frames)).toHaveLength(11);
    expect((await createFrameStore(file).read()).frames['ses_7']?.goal).toBe('goal of ses_7');
  });
});
