import { spawnSync } from 'node:child_process';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { thisClaimer } from '../../../../src/main/memory/delivery/claimer.js';
import { createOutbox } from '../../../../src/main/memory/delivery/outbox.js';
import { createSpill } from '../../../../src/main/memory/delivery/spill.js';
import { scratchFolders } from '../../../support/scratch.js';

const newFolder = scratchFolders('spill');
const key = 'a'.repeat(32);
const entry = { key, kind: 'thought', payload: { response: 'A [[redis]] summary.' }, project: 'demo', createdAt: 1, attempts: 0, nextAttemptAt: 1 };
const name = `000000000000001-${key}.json`;

describe('createSpill', () => {
  it('should take back an entry whose adopter died between taking it and moving it to the outbox', async ({ onTestFinished }) => {
    const root = await newFolder(onTestFinished);
    const dir = join(root, 'spill');
    await mkdir(dir, { recursive: true });
    // A process that has exited: its pid is gone, as a killed adopter's is.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid as number;
    const { scope } = await thisClaimer();
    await writeFile(join(dir, `${name}.adopting-${dead}-0-${scope}-1`), `${JSON.stringify(entry)}\n`);
    const outbox = createOutbox(join(root, 'outbox'));
    expect(await createSpill(dir).adopt(outbox, 1_000)).toBe(1);
    expect((await outbox.list()).map((listed) => listed.key)).toEqual([key]);
    expect(await readdir(dir)).toEqual([]);
  });

  it('should leave an entry being taken by a live adopter', async ({ onTestFinished }) => {
    const root = await newFolder(onTestFinished);
    const dir = join(root, 'spill');
    await mkdir(dir, { recursive: true });
    const own = await thisClaimer();
    const taken = `${name}.adopting-${own.pid}-${own.start}-${own.scope}-1`;
    await writeFile(join(dir, taken), `${JSON.stringify(entry)}\n`);
    expect(await createSpill(dir).adopt(createOutbox(join(root, 'outbox')), 1_000)).toBe(0);
    expect(await readdir(dir)).toEqual([taken]);
  });
});
