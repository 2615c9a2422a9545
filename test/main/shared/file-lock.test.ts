import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { StateLockError, throwIfAborted, withFileLock } from '../../../src/main/shared/file-lock.js';
import { fixtureArgv } from '../../support/fixture-process.js';

const HOLDER = fileURLToPath(new URL('../../fixtures/state/lock-holder.ts', import.meta.url));
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function scratch(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'file-lock-'));
  dirs.push(dir);
  return dir;
}

function start(args: string[]): { proc: ReturnType<typeof spawn>; output: () => string; exited: Promise<number | null> } {
  const proc = spawn(process.execPath, [...fixtureArgv(HOLDER), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  proc.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { proc, output: () => output, exited: new Promise((resolve) => proc.once('exit', (code) => resolve(code))) };
}

describe('withFileLock', () => {
  it('should let two processes increment one file 2 × 150 times without losing an update', async () => {
    const dir = await scratch();
    const lock = join(dir, 'locks', 'counter.lock');
    const counter = join(dir, 'counter');
    const runs = [start([lock, counter, 'count', '150']), start([lock, counter, 'count', '150'])];
    expect(await Promise.all(runs.map((run) => run.exited))).toEqual([0, 0]);
    expect(await readFile(counter, 'utf8')).toBe('300');
  });

  it('should take over the lock of a process killed while holding it', async () => {
    const dir = await scratch();
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
});
