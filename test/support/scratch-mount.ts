/**
 * Small tmpfs mounts for disk-full and read-only tests, and bind mounts for a
 * second route to one folder. Mounting needs root
 * (and a kernel that allows it in this container); `mountTmpfs` answers null
 * where it cannot, so a test can say why it did not run.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A mounted tmpfs. */
export interface Mount {
  dir: string;
  /** `mount -o remount,ro|rw`. */
  remount(mode: 'ro' | 'rw'): void;
  unmount(): Promise<void>;
}

/**
 * @param sizeKb - the file system's size.
 */
export async function mountTmpfs(sizeKb: number): Promise<Mount | null> {
  const dir = await mkdtemp(join(tmpdir(), 'tmpfs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKb}k`, 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    await rm(dir, { recursive: true, force: true });
    return null;
  }
  return {
    dir,
    remount: (mode) => execFileSync('mount', ['-o', `remount,${mode}`, dir], { stdio: 'ignore' }),
    async unmount() {
      try {
        execFileSync('umount', [dir], { stdio: 'ignore' });
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * Mounts `source` again at `target` (an existing folder).
 *
 * @returns how to unmount it, or null where this machine does not let the tests mount.
 */
export function bindMount(source: string, target: string): (() => void) | null {
  try {
    execFileSync('mount', ['--bind', source, target], { stdio: 'ignore' });
  } catch {
    return null;
  }
  return () => execFileSync('umount', [target], { stdio: 'ignore' });
}

/** Whether this machine lets the tests mount a tmpfs. */
export async function canMount(): Promise<boolean> {
  const probe = await mountTmpfs(16);
  await probe?.unmount();
  return probe !== null;
}
