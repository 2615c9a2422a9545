import { describe, expect, it } from 'vitest';
import { parseMountInfo, routeIndependentPath, type FileIdentity } from '../../../src/main/shared/folder-identity.js';

/** A mount table as Linux prints it: the root file system, /home on its own, and three bind mounts. */
const MOUNT_INFO = [
  '27 1 254:0 / / rw,relatime - ext4 /dev/vda rw',
  '30 27 254:1 / /home rw,relatime - ext4 /dev/vdb rw',
  '42 27 254:0 /srv/acme /work/acme rw,relatime - ext4 /dev/vda rw',
  '43 27 254:1 /u/my\\040shop /work/my\\040shop rw,relatime - ext4 /dev/vdb rw',
  '44 27 254:0 /srv/gone /work/gone rw,relatime - ext4 /dev/vda rw',
  '',
].join('\n');

/** Device and inode by path: the folders a bind mount shows twice share one. */
const FOLDERS: Record<string, FileIdentity> = {
  '/srv/acme/api': { dev: 1, ino: 10 },
  '/work/acme/api': { dev: 1, ino: 10 },
  '/home/u/my shop': { dev: 2, ino: 20 },
  '/work/my shop': { dev: 2, ino: 20 },
  // Another file system mounted over the original since: not the same folder.
  '/srv/gone': { dev: 3, ino: 30 },
  '/work/gone': { dev: 1, ino: 31 },
};
const identityOf = (path: string): FileIdentity | null => FOLDERS[path] ?? null;

describe('parseMountInfo', () => {
  it('should read each mount\'s device, root and mount point, escapes decoded', () => {
    expect(parseMountInfo(MOUNT_INFO)[3]).toEqual({ device: '254:1', root: '/u/my shop', mountPoint: '/work/my shop' });
    expect(parseMountInfo('garbage\n\n1 2 x / /')).toEqual([]);
  });
});

describe('routeIndependentPath', () => {
  it('should map a folder seen through a bind mount back to the mount of its file system\'s root', () => {
    expect(routeIndependentPath('/work/acme/api', MOUNT_INFO, identityOf)).toBe('/srv/acme/api');
    expect(routeIndependentPath('/work/my shop', MOUNT_INFO, identityOf)).toBe('/home/u/my shop');
  });

  it('should keep a path under a mount of its file system\'s root, and one whose mapping is another folder', () => {
    expect(routeIndependentPath('/srv/acme/api', MOUNT_INFO, identityOf)).toBe('/srv/acme/api');
    expect(routeIndependentPath('/home/u/my shop', MOUNT_INFO, identityOf)).toBe('/home/u/my shop');
    expect(routeIndependentPath('/work/gone', MOUNT_INFO, identityOf)).toBe('/work/gone');
    // No mount table (another platform): the real path as it is.
    expect(routeIndependentPath('/work/acme/api', null, identityOf)).toBe('/work/acme/api');
  });
});
