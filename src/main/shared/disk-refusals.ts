/**
 * The one list of the disk's refusals: errors of a file or folder that no
 * wait cures (a full disk or quota, a read-only or forbidden folder, a file
 * where a folder should be or the other way round). The lock, thought
 * delivery, the outbox and the state files all read them from here, so a
 * full state folder is a refusal everywhere, never a retry in one place and
 * a refusal in another.
 */

/** Error codes of the disk that waiting does not cure. */
export const DISK_REFUSALS: ReadonlySet<string> = new Set([
  // Full: the disk, the user's quota, the largest file the system takes.
  'ENOSPC',
  'EDQUOT',
  'EFBIG',
  // Read-only or forbidden.
  'EROFS',
  'EACCES',
  'EPERM',
  // The path is not what it should be: a file where a folder should be (mkdir answers EEXIST or
  // ENOTDIR), a folder where a file should be, a loop of links, a name too long.
  'ENOTDIR',
  'EISDIR',
  'EEXIST',
  'ELOOP',
  'ENAMETOOLONG',
]);

/** The error's `code`, when it has one of text. */
export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Whether the disk refused: see {@link DISK_REFUSALS}.
 *
 * @param error - anything thrown by a file operation.
 */
export function isDiskRefusal(error: unknown): boolean {
  return DISK_REFUSALS.has(errorCode(error) ?? '');
}
