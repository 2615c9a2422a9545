import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, symlink, utimes, writeFile } from 'node:fs/promises';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { writeFileAtomically } from '../../../src/io/atomic-file.js';
import { assertHeld, StateLockError, throwIfAborted, withFileLock } from '../../../src/main/shared/file-lock.js';
import { fixtureArgv } from '../../../support/fixture-process.js';
import { canMount, mountTmpfs, type Mount } from '../../support/scratch-mount.js';
import { stopHolderPastStale } from '../../support/stale-lock.js';
import { scratchFolders } from '../../support/scratch.js';

const mountable = await canMount();

const HOLDER = fileURLToPath(new URL('../../fixtures/state/lock-holder.ts', import.meta.url));
const scratch = scratchFolders('file-lock');

function start(args: string[]): { proc: ReturnType<typeof spawn>; output: () => string; exited: Promise<number | null> } {
  const proc = spawn(process.execPath, [...fixtureArgv(HOLDER), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  proc.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { proc, output: () => output, exited: new Promise((resolve) => proc.once('exit', (code) => resolve(code))) };
}

describe('withFileLock', () => {
  // The two start processes; the second spends most of its time waiting for the killed holder's lock to
  // go stale by the real clock, while the first keeps both cores busy: they run at once.
  it.concurrent('should let two processes increment one file 2 × 150 times without losing an update', async ({ onTestFinished }) => {
    const dir = await scratch(onTestFinished);
    const lock = join(dir, 'locks', 'counter.lock');
    const counter = join(dir, 'counter');
    const runs = [start([lock, counter, 'count', '150']), start([lock, counter, 'count', '150'])];
    expect(await Promise.all(runs.map((run) => run.exited))).toEqual([0, 0]);
    expect(await readFile(counter, 'utf8')).toBe('300');
  });

  it.concurrent('should take over the lock of a process killed while holding it', async ({ onTestFinished }) => {
    const dir = await scratch(onTestFinished);
    const lock = join(dir, 'locks', 'held.lock');
    const holder = start([lock, join(dir, 'unused'), 'hold']);
    while (!holder.output().includes('held')) await new Promise((resolve) => setTimeout(resolve, 20));
    holder.proc.kill('SIGKILL');
    await holder.exited;
    // Killed, it could not release the lock: what is taken over is a dead holder's lock.
    expect(existsSync(lock)).toBe(true);
    await expect(withFileLock(lock, async () => 'mine', { staleMs: 2_000, waitMs: 30_000 })).resolves.toBe('mine');
  });

  it('should give up a step that does not finish, stop it from writing, and serve the next caller', async () => {
    const dir = await scratch();
    const lock = join(dir, 'locks', 'hung.lock');
    let stopped: AbortSignal | undefined;
    const hung = withFileLock(
      lock,
      (signal) => {
        stopped = signal;
        return new Promise<never>(() => undefined);
      },
      { holdMs: 200 },
    );
    await expect(hung).rejects.toMatchObject({ code: 'STATE_TIMEOUT' });
    expect(() => throwIfAborted(stopped as AbortSignal)).toThrow(StateLockError);
    await expect(withFileLock(lock, async () => 'next')).resolves.toBe('next');
  });

  it('should take over a lock whose mtime lies in the future (a clock stepped back, a file server ahead)', async () => {
    const dir = await scratch();
    const lock = join(dir, 'locks', 'ahead.lock');
    await mkdir(lock, { recursive: true });
    const dayAhead = new Date(Date.now() + 86_400_000);
    await utimes(lock, dayAhead, dayAhead);
    await expect(withFileLock(lock, async () => 'mine', { staleMs: 2_000, waitMs: 8_000 })).resolves.toBe('mine');
  });

  it('should refuse the write of a holder stopped while another process took its lock over', async () => {
    const dir = await scratch();
    const lock = join(dir, 'locks', 'stopped.lock');
    const file = join(dir, 'state');
    const holder = start([lock, file, 'late-write']);
    while (!holder.output().includes('held')) await new Promise((resolve) => setTimeout(resolve, 20));
    // Stopped past the lock's stale threshold: the test does not wait those two seconds out (the takeover
    // by the real clock is the killed holder's case above).
    await stopHolderPastStale(holder.proc, lock, 2_000);
    await withFileLock(
      lock,
      async (signal) => {
        await writeFileAtomically(file, 'fresh', 0o600, () => assertHeld(signal));
        // Resumed while this process holds the lock, and told to write at once.
        await writeFile(`${file}.go`, '');
        holder.proc.kill('SIGCONT');
        const deadline = Date.now() + 20_000;
        while (!/wrote|refused/.test(holder.output()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      },
      { staleMs: 2_000, waitMs: 30_000, holdMs: 30_000 },
    );
    expect(await holder.exited).toBe(0);
    expect(holder.output()).toContain('refused');
    expect(await readFile(file, 'utf8')).toBe('fresh');
  });

  it('should never let two takers of one stale lock hold it at once, however long one pauses between judging it stale and taking it', async () => {
    const dir = await scratch();
    const lock = join(dir, 'locks', 'raced.lock');
    // A second name for the same folder: this process's queue does not order the two takers, as it would
    // not order two processes.
    await mkdir(join(dir, 'locks'));
    await symlink(join(dir, 'locks'), join(dir, 'alias'));
    const alias = join(dir, 'alias', 'raced.lock');
    // A dead holder's lock, as an earlier version left it: a folder and its owner file, long unrefreshed.
    await mkdir(lock);
    await writeFile(join(lock, 'owner'), 'dead-holder\n');
    const past = new Date(Date.now() - 60_000);
    await utimes(join(lock, 'owner'), past, past);
    await utimes(lock, past, past);
    // The second taker is held between judging the lock stale and moving it aside (its rename to `.stale-…`).
    const fsp = createRequire(import.meta.url)('node:fs/promises') as { rename: (from: string, to: string) => Promise<void> };
    const realRename = fsp.rename;
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let judged = (): void => undefined;
    const paused = new Promise<void>((resolve) => (judged = resolve));
    let resumed: Promise<void> | null = null;
    fsp.rename = (from, to) => {
      if (resumed || !String(from).startsWith(alias) || !String(to).includes('.stale-')) return realRename(from, to);
      judged();
      const moved = gate.then(() => realRename(from, to));
      resumed = moved.then(
        () => undefined,
        () => undefined,
      );
      return moved;
    };
    syncBuiltinESMExports();
    let holding = 0;
    let most = 0;
    let stillHeld = false;
    const step = async (): Promise<void> => {
      holding += 1;
      most = Math.max(most, holding);
      await new Promise((resolve) => setImmediate(resolve));
      holding -= 1;
    };
    try {
      const second = withFileLock(alias, step, { staleMs: 2_000, waitMs: 30_000 });
      await paused;
      const first = withFileLock(
        lock,
        async (signal) => {
          holding += 1;
          most = Math.max(most, holding);
          // The paused taker resumes while this one holds the lock, and gets time to take it.
          release();
          await resumed;
          await new Promise((resolve) => setTimeout(resolve, 300));
          stillHeld = await assertHeld(signal).then(
            () => true,
            () => false,
          );
          holding -= 1;
        },
        { staleMs: 2_000, waitMs: 30_000 },
      );
      await Promise.all([first, second]);
    } finally {
      fsp.rename = realRename;
      syncBuiltinESMExports();
    }
    expect(most).toBe(1);
    expect(stillHeld).toBe(true);
    // Nothing left beside the lock but what the takeovers removed.
    expect((await readdir(join(dir, 'locks'))).filter((name) => name !== 'raced.lock')).toEqual([]);
  });

  it('should fail at once with the cause when the locks folder is a file', async () => {
    const dir = await scratch();
    await writeFile(join(dir, 'locks'), 'a file where the folder should be');
    const step = async (): Promise<string> => 'ran';
    await expect(withFileLock(join(dir, 'locks', 'x.lock'), step, { waitMs: 3_000 })).rejects.toMatchObject({ code: 'ENOTDIR', message: expect.stringContaining(`lock folder ${join(dir, 'locks')} cannot be used (ENOTDIR`) });
  });

  it.runIf(mountable)('should fail at once with the cause when the locks folder is read-only, not report it as busy', async ({ onTestFinished }) => {
    const mount = (await mountTmpfs(64)) as Mount;
    onTestFinished(() => mount.unmount());
    await mkdir(join(mount.dir, 'locks'));
    mount.remount('ro');
    const failure = await withFileLock(join(mount.dir, 'locks', 'x.lock'), async () => 'ran', { waitMs: 3_000 }).catch((error: unknown) => error as Error & { code?: string });
    expect(failure).toMatchObject({ code: 'EROFS', message: expect.stringContaining('cannot be used (EROFS') });
    expect(String((failure as Error).message)).not.toContain('still held');
  });
});
