/**
 * One name for a folder whatever the route to it. A symbolic link is
 * resolved by `realpath`; a bind mount is not: `/srv/acme` mounted again at
 * `/work/acme` has two real paths, one device and one inode. On Linux the
 * mount table (`/proc/self/mountinfo`) says which part of which file system
 * each mount shows, so a path reached through a bind mount is mapped back to
 * the same folder under the mount that shows that file system from the
 * highest folder (its root, when that is mounted), and the mapping is kept
 * only when the device and inode there are the folder's own.
 *
 * A folder reached through a mount of its file system's root comes back as
 * it is: the common route keeps the name it always had, so the keys of
 * projects that exist stay what they were. No state is kept: two processes
 * that reach one folder by two routes name it alike without having to agree.
 */
import { readFileSync, statSync } from 'node:fs';
import { posix } from 'node:path';

/** One line of the mount table: what a mount shows and where. */
export interface MountEntry {
  /** `major:minor` of the file system. */
  device: string;
  /** The folder of that file system the mount shows (`/` for its root). */
  root: string;
  /** Where it is mounted. */
  mountPoint: string;
}

/** A folder's identity as the file system gives it. */
export interface FileIdentity {
  dev: number;
  ino: number;
}

// The mount table writes space, tab, line feed and backslash as octal escapes.
const OCTAL_ESCAPE = /\\([0-7]{3})/g;

function unescapeField(field: string): string {
  return field.replace(OCTAL_ESCAPE, (_, digits: string) => String.fromCharCode(Number.parseInt(digits, 8)));
}

/**
 * The mounts of a `/proc/<pid>/mountinfo` text, in its order (the order they were mounted in).
 *
 * @param text - the table as read; lines that do not parse are skipped.
 */
export function parseMountInfo(text: string): MountEntry[] {
  const entries: MountEntry[] = [];
  for (const line of text.split('\n')) {
    const [, , device, root, mountPoint] = line.split(' ');
    if (!device || !root || !mountPoint || !/^\d+:\d+$/.test(device)) continue;
    entries.push({ device, root: unescapeField(root), mountPoint: unescapeField(mountPoint) });
  }
  return entries;
}

/** Whether `path` is `folder` or lies below it (both absolute, normalized). */
function isWithin(path: string, folder: string): boolean {
  return folder === '/' || path === folder || path.startsWith(`${folder}/`);
}

/** `path` below `from`, placed below `to` instead. */
function rebase(path: string, from: string, to: string): string {
  return posix.join(to, posix.relative(from, path));
}

function identify(path: string): FileIdentity | null {
  try {
    const stats = statSync(path);
    return { dev: stats.dev, ino: stats.ino };
  } catch {
    return null;
  }
}

function readMountInfo(): string | null {
  try {
    return readFileSync('/proc/self/mountinfo', 'utf8');
  } catch {
    // No mount table (macOS, Windows, a restricted /proc): the real path names the folder.
    return null;
  }
}

/**
 * The route-independent path of a folder: `realPath` itself when it lies under a mount of its file
 * system's root (or there is no mount table to read), else the same folder under the mount of that
 * file system with the highest root that holds it, when the device and inode there match.
 *
 * @param realPath - the folder's real path (symbolic links already resolved), absolute.
 * @param mountInfo - the mount table's text; read from `/proc/self/mountinfo` when not given, `null` for none.
 * @param identityOf - the device and inode of a path; `null` when it cannot be read.
 */
export function routeIndependentPath(realPath: string, mountInfo: string | null = readMountInfo(), identityOf: (path: string) => FileIdentity | null = identify): string {
  if (mountInfo === null || !posix.isAbsolute(realPath)) return realPath;
  const mounts = parseMountInfo(mountInfo);
  // The mount the path is seen through: the deepest mount point above it, the last mounted when two share one.
  let through: MountEntry | undefined;
  for (const mount of mounts) if (isWithin(realPath, mount.mountPoint) && (!through || mount.mountPoint.length >= through.mountPoint.length)) through = mount;
  if (!through || through.root === '/') return realPath;
  const inFileSystem = rebase(realPath, through.mountPoint, through.root);
  const own = identityOf(realPath);
  if (!own) return realPath;
  // Mounts of the same file system that show the folder from higher up: the highest first, then the first mounted.
  const higher = mounts
    .map((mount, order) => ({ mount, order }))
    .filter(({ mount }) => mount.device === through.device && mount.root.length < through.root.length && isWithin(inFileSystem, mount.root))
    .sort((a, b) => a.mount.root.length - b.mount.root.length || a.order - b.order);
  for (const { mount } of higher) {
    const candidate = rebase(inFileSystem, mount.root, mount.mountPoint);
    const seen = identityOf(candidate);
    // Another mount over the candidate, or a folder gone since, is not the same folder.
    if (seen && seen.dev === own.dev && seen.ino === own.ino) return candidate;
  }
  return realPath;
}
