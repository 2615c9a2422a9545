import { spawnSync } from 'node:child_process';
import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claimerGone, claimerScope, NO_SCOPE, thisClaimer } from '../../../../src/main/memory/delivery/claimer.js';
import { scratchFolders } from '../../../support/scratch.js';

const scratch = scratchFolders('claimer');

describe('claimerScope', () => {
  it('should name no scope where the process table is missing or is another namespace’s', async () => {
    const proc = await scratch();
    expect(await claimerScope(join(proc, 'missing'))).toBe(NO_SCOPE);
    // A process table whose `self` is not this process: its pids are not the ones kill reaches.
    await mkdir(join(proc, 'sys', 'kernel', 'random'), { recursive: true });
    await symlink(String(process.pid + 1), join(proc, 'self'));
    expect(await claimerScope(proc)).toBe(NO_SCOPE);
  });
});

describe('claimerGone', () => {
  const dead = spawnSync(process.execPath, ['-e', '0']).pid;

  it('should tell a dead claimer only in this process’s own scope, and never by pid 0 or 1', async () => {
    const own = await thisClaimer();
    expect(own.scope).toMatch(/^[0-9a-f]{12}$/);
    expect(await claimerGone({ pid: dead, start: '7', scope: own.scope })).toBe(true);
    expect(await claimerGone({ pid: dead, start: '7', scope: '0123456789ab' })).toBe(false);
    expect(await claimerGone({ pid: dead, start: '7' })).toBe(false);
    expect(await claimerGone({ pid: dead, start: '7', scope: NO_SCOPE }, NO_SCOPE)).toBe(false);
    expect(await claimerGone({ pid: 0, start: '7', scope: own.scope })).toBe(false);
    expect(await claimerGone({ pid: 1, start: '7', scope: own.scope })).toBe(false);
  });
});
