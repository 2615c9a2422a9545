import { spawn, spawnSync } from 'node:child_process';
import { mkdir, readdir, readFile, rename, rm, utimes, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { thisClaimer } from '../../../../src/main/memory/delivery/claimer.js';
import { createOutbox } from '../../../../src/main/memory/delivery/outbox.js';
import { CLAIMED } from '../../../../src/main/memory/delivery/outbox-entry.js';
import { createLogger } from '../../../../src/main/shared/logger.js';
import { createFakeHost } from '../../../../support/fake-host.js';
import { fixtureArgv } from '../../../../support/fixture-process.js';
import { hungFile } from '../../../support/hung-file.js';
import { scratchFolders } from '../../../support/scratch.js';

const CLAIM_HOLDER = fileURLToPath(new URL('../../../fixtures/delivery/claim-holder.ts', import.meta.url));

const scratch = scratchFolders('outbox');

/** Whether this machine lets a test start a process in a PID namespace of its own. */
const canUnshare = spawnSync('unshare', ['--pid', '--fork', '--mount-proc', '--map-root-user', 'true']).status === 0;

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
    // Made in this boot and PID namespace, where the pid can be judged.
    const claimed = `${name}.claim-${dead}-0-${Date.now()}-${(await thisClaimer()).scope}-0a1b`;
    await rm(join(dir, name));
    await writeFile(join(dir, claimed), `${JSON.stringify(entry)}\n`);
    expect((await outbox.list()).map((listed) => listed.key)).toEqual([fields.key]);
    expect((await readdir(dir)).sort()).toEqual([name, 'failed']);
    await writeFile(join(dir, claimed), `${JSON.stringify(entry)}\n`);
    expect(await outbox.list()).toHaveLength(1);
    expect((await readdir(dir)).sort()).toEqual([name, 'failed']);
  });

  it('should give back the claim of a process that died with the call it marked as in flight', async () => {
    const dir = join(await scratch(), 'outbox');
    const outbox = createOutbox(dir);
    const claim = (await outbox.claim((await outbox.add(fields))!))!;
    const call = { sessionId: 'session-1764633600000-00042', at: 1_764_633_600_123, settledBy: 1_764_633_610_123 };
    await outbox.mark(claim, call);
    // An earlier version reads the marked name as a claim, and gives the entry back (without the mark).
    expect(CLAIMED.test(basename(claim.path))).toBe(true);
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    await rename(claim.path, claim.path.replace(/\.claim-\d+-/, `.claim-${dead}-`));
    expect(await createOutbox(dir).list()).toMatchObject([{ key: fields.key, unrecorded: call }]);
    expect((await readdir(dir)).filter((file) => file.includes('.claim-'))).toEqual([]);
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

  it('should keep aside a folder named as an entry, as a damaged entry', async () => {
    const dir = join(await scratch(), 'outbox');
    const host = createFakeHost();
    const outbox = createOutbox(dir, { logger: createLogger(host.client) });
    await outbox.add(fields);
    const name = (await readdir(dir)).find((file) => file.endsWith('.json')) as string;
    await rm(join(dir, name));
    await mkdir(join(dir, name, 'inner'), { recursive: true });
    expect(await outbox.list()).toEqual([]);
    expect((await readdir(dir)).sort()).toEqual([expect.stringMatching(new RegExp(`^${name}\\.corrupt-`)), 'failed']);
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

  it('should keep a claimed entry whose read times out, pending again, with a log line', async () => {
    const dir = join(await scratch(), 'outbox');
    const host = createFakeHost();
    const logger = createLogger(host.client);
    const outbox = createOutbox(dir, { logger, readDeadlineMs: 200 });
    const entry = (await outbox.add(fields))!;
    const name = (await readdir(dir)).find((file) => file.endsWith('.json')) as string;
    // The entry's file stops answering reads (a hung network home): a FIFO in its place.
    await rm(join(dir, name));
    const hung = await hungFile(dir, name);
    try {
      expect(await outbox.claim(entry)).toBeNull();
      expect((await readdir(dir)).sort()).toEqual([name, 'failed']);
      await logger.flush();
      expect(host.linesWith(`could not read claimed note ${fields.key} (STATE_TIMEOUT); it is pending again`)).toHaveLength(1);
    } finally {
      await hung.release();
    }
  });

  it('should not take as stale an old entry that a live process claimed a moment ago', async ({ onTestFinished }) => {
    const dir = join(await scratch(), 'outbox');
    await createOutbox(dir).add(fields);
    const name = (await readdir(dir)).find((file) => file.endsWith('.json')) as string;
    // Written two hours ago: the claiming rename keeps this mtime.
    const old = new Date(Date.now() - 7_200_000);
    await utimes(join(dir, name), old, old);
    const holder = spawn(process.execPath, [...fixtureArgv(CLAIM_HOLDER), dir], { stdio: ['ignore', 'pipe', 'inherit'] });
    onTestFinished(() => void holder.kill('SIGKILL'));
    let output = '';
    holder.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await new Promise<void>((resolve, reject) => {
      holder.stdout.on('data', () => output.includes('claimed') && resolve());
      holder.once('exit', () => reject(new Error(`claim holder exited: ${output}`)));
    });
    expect(await createOutbox(dir, { claimTtlMs: 600_000 }).list()).toEqual([]);
    expect((await readdir(dir)).filter((file) => file.includes('.claim-'))).toHaveLength(1);
  });

  it.runIf(canUnshare)('should leave alone a live claim made in another PID namespace', async ({ onTestFinished }) => {
    const dir = join(await scratch(), 'outbox');
    await createOutbox(dir).add(fields);
    // Another container on this machine: its own PID namespace and process table, where the holder is pid 1.
    const holder = spawn('unshare', ['--pid', '--fork', '--mount-proc', '--kill-child', '--map-root-user', process.execPath, ...fixtureArgv(CLAIM_HOLDER), dir], { stdio: ['ignore', 'pipe', 'inherit'], detached: true });
    onTestFinished(() => void process.kill(-(holder.pid as number), 'SIGKILL'));
    let output = '';
    await new Promise<void>((resolve, reject) => {
      holder.stdout.on('data', (chunk: Buffer) => ((output += chunk.toString()), output.includes('claimed') && resolve()));
      holder.once('exit', () => reject(new Error(`claim holder exited: ${output}`)));
    });
    expect(await createOutbox(dir).list()).toEqual([]);
    expect((await readdir(dir)).filter((file) => file.includes('.claim-'))).toHaveLength(1);
  });

  it('should judge by its age a claim whose pid this process cannot judge', async () => {
    const dir = join(await scratch(), 'outbox');
    const outbox = createOutbox(dir);
    const entry = (await outbox.add(fields))!;
    const name = (await readdir(dir)).find((file) => file.endsWith('.json')) as string;
    await rm(join(dir, name));
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    const now = Date.now();
    // Each made a moment ago: by an earlier version (no scope), in another namespace, without a process
    // table, and naming pid 0 or 1 (any namespace's init), with start times that match no process here.
    const claims = [`claim-${dead}-7-${now}-0a1b`, `claim-${dead}-7-${now}-0123456789ab-0a1b`, `claim-${dead}-7-${now}-0-0a1b`, `claim-0-7-${now}-0a1b`, `claim-1-7-${now}-0a1b`];
    for (const claim of claims) {
      await writeFile(join(dir, `${name}.${claim}`), `${JSON.stringify(entry)}\n`);
      expect(await outbox.list()).toEqual([]);
      await rm(join(dir, `${name}.${claim}`));
    }
  });

  it('should put back a claim whose time lies ahead once this process has seen it for the claim time to live', async () => {
    const dir = join(await scratch(), 'outbox');
    const outbox = createOutbox(dir, { claimTtlMs: 200 });
    const entry = (await outbox.add(fields))!;
    const name = (await readdir(dir)).find((file) => file.endsWith('.json')) as string;
    await rm(join(dir, name));
    // Named with pid 0, which is no process: only its age can tell, and its clock ran a day ahead.
    await writeFile(join(dir, `${name}.claim-0-0-${Date.now() + 86_400_000}-0a1b`), `${JSON.stringify(entry)}\n`);
    expect(await outbox.list()).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect((await outbox.list()).map((listed) => listed.key)).toEqual([fields.key]);
  });

  it('should put back at once a claim whose pid now belongs to another process', async () => {
    const dir = join(await scratch(), 'outbox');
    const outbox = createOutbox(dir);
    const entry = (await outbox.add(fields))!;
    const name = (await readdir(dir)).find((file) => file.endsWith('.json')) as string;
    // The parent's pid is alive, but not the process that started at tick 1 after boot and made this claim a moment ago.
    await rm(join(dir, name));
    await writeFile(join(dir, `${name}.claim-${process.ppid}-1-${Date.now()}-${(await thisClaimer()).scope}-0a1b`), `${JSON.stringify(entry)}\n`);
    expect((await outbox.list()).map((listed) => listed.key)).toEqual([fields.key]);
    expect((await readdir(dir)).sort()).toEqual([name, 'failed']);
  });

  it('should redact credentials in what it writes, the last error and the reason an entry is parked', async () => {
    const dir = join(await scratch(), 'outbox');
    const outbox = createOutbox(dir);
    const secret = 'sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';
    await outbox.add(fields);
    const [listed] = await outbox.list();
    const claim = (await outbox.claim(listed!))!;
    claim.entry.lastError = `TOOL_ERROR: WriteMemory failed: INTERNAL_ERROR: auth with ${secret} refused`;
    await outbox.release(claim);
    const name = (await readdir(dir)).find((file) => file.endsWith('.json')) as string;
    const pending = await readFile(join(dir, name), 'utf8');
    expect(pending).not.toContain(secret);
    expect(pending).toContain('[REDACTED:anthropic-key]');
    const again = (await outbox.claim((await outbox.list())[0]!))!;
    await outbox.park(again, `TOOL_ERROR VALIDATION_ERROR: token=${secret}`);
    const parked = await readFile(join(dir, 'failed', name), 'utf8');
    expect(parked).not.toContain(secret);
    expect(parked).toContain('[REDACTED');
  });
});
