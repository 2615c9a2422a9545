import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createOutbox } from '../../../../src/main/memory/delivery/outbox.js';
import { createLogger } from '../../../../src/main/shared/logger.js';
import { createFakeHost } from '../../../support/fake-host.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function scratch(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'outbox-'));
  dirs.push(dir);
  return dir;
}

const fields = { key: 'a'.repeat(32), kind: 'note' as const, payload: { title: 't', content: '[[x]]' }, project: 'demo' };

describe('createOutbox', () => {
  it('should let only one of two claims of an entry win', async () => {
    const dir = join(await scratch(), 'outbox');
    const entry = await createOutbox(dir).add(fields);
    const claims = await Promise.all([createOutbox(dir).claim(entry!), createOutbox(dir).claim(entry!)]);
    expect(claims.filter((claim) => claim !== null)).toHaveLength(1);
    expect(await createOutbox(dir).list()).toEqual([]);
    expect(await createOutbox(dir).add(fields)).toBeNull();
  });

  it('should put back the claim of a process that died, and drop it when a newer copy is pending', async () => {
    const dir = join(await scratch(), 'outbox');
    const outbox = createOutbox(dir);
    const entry = (await outbox.add(fields))!;
    // The pid of a process that has exited.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    const name = (await readdir(dir)).find((file) => file.endsWith('.json')) as string;
    const claimed = `${name}.claim-${dead}-0a1b`;
    await rm(join(dir, name));
    await writeFile(join(dir, claimed), `${JSON.stringify(entry)}\n`);
    expect((await outbox.list()).map((listed) => listed.key)).toEqual([fields.key]);
    expect((await readdir(dir)).sort()).toEqual([name, 'failed']);
    await writeFile(join(dir, claimed), `${JSON.stringify(entry)}\n`);
    expect(await outbox.list()).toHaveLength(1);
    expect((await readdir(dir)).sort()).toEqual([name, 'failed']);
  });

  it('should keep a damaged entry aside with one log line', async () => {
    const dir = join(await scratch(), 'outbox');
    const host = createFakeHost();
    const outbox = createOutbox(dir, { logger: createLogger(host.client) });
    await outbox.add(fields);
    const name = (await readdir(dir)).find((file) => file.endsWith('.json')) as string;
    await writeFile(join(dir, name), '{"key":"aaaa');
    expect(await outbox.list()).toEqual([]);
    expect(await outbox.list()).toEqual([]);
    expect((await readdir(dir)).filter((file) => file.includes('.corrupt-'))).toHaveLength(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(host.linesWith('damaged outbox entry')).toHaveLength(1);
  });

  it('should create its folder again after the disk refused it once', async () => {
    const parent = await scratch();
    await writeFile(join(parent, 'state'), 'a file where the folder should be');
    const outbox = createOutbox(join(parent, 'state', 'outbox'));
    await expect(outbox.add(fields)).rejects.toMatchObject({ code: 'ENOTDIR' });
    await rm(join(parent, 'state'));
    expect(await outbox.add(fields)).toMatchObject({ key: fields.key });
    expect(await outbox.list()).toHaveLength(1);
  });
});
