/**
 * The files a session touched, read from tool-call inputs.
 *
 * Pure: no file system access. Paths are only normalized as strings, so a
 * path never leads this code to read anything.
 */

/** Input keys that name one file or folder, by tool. Unknown tools are read through `path` and `filePath`. */
const PATH_KEYS = ['filePath', 'file_path', 'path', 'filepath'] as const;

/** Tools whose `path` argument is a search root, not a file the session worked on. */
const SEARCH_TOOLS = new Set(['glob', 'grep']);

/** Lines of an apply-patch body that name a file. */
const PATCH_FILE_LINE = /^\*\*\* (?:Add|Update|Delete) File: (.+)$/;
const PATCH_MOVE_LINE = /^\*\*\* Move to: (.+)$/;

/** Longest path kept; longer strings are tool noise, not paths. */
const MAX_PATH_CHARS = 1_024;

/**
 * Normalizes a path for the working set: forward slashes, no `./`, relative to
 * `projectRoot` when it lies under it.
 *
 * @param raw - the path as the tool received it.
 * @param projectRoot - the worktree; `null` keeps absolute paths as they are.
 * @returns the normalized path, or `null` when `raw` is not a usable path.
 */
export function normalizeToolPath(raw: string, projectRoot: string | null): string | null {
  let path = raw.trim().replaceAll('\\', '/');
  if (path.length === 0 || path.length > MAX_PATH_CHARS || path.includes('\0') || path.includes('\n')) return null;
  while (path.startsWith('./')) path = path.slice(2);
  path = path.replace(/\/{2,}/g, '/');
  if (projectRoot) {
    const root = projectRoot.replaceAll('\\', '/').replace(/\/+$/, '');
    if (path === root) return '.';
    if (root.length > 0 && path.startsWith(`${root}/`)) path = path.slice(root.length + 1);
  }
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  return path.length > 0 ? path : null;
}

/** Paths read from one `paths` list, and how much of a patch body is scanned for file lines. */
const MAX_LISTED_PATHS = 100;
const MAX_PATCH_CHARS = 1_000_000;
const MAX_COMMAND_CHARS = 8_192;

/**
 * The arguments {@link filesFromToolInput} reads, copied out of a tool's input:
 * the path keys, the first `paths`, the head of a patch body. Everything else
 * (file contents, arbitrarily nested data) stays behind, so the copy is small
 * and flat whatever a tool was given, and can cross to a worker.
 *
 * @param input - the tool's arguments as recorded in the session; any value.
 */
export function pathArguments(input: unknown): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return kept;
  const source = input as Record<string, unknown>;
  for (const key of PATH_KEYS) {
    const value = source[key];
    if (typeof value === 'string' && value.length <= MAX_PATH_CHARS) kept[key] = value;
  }
  const paths = source['paths'];
  if (Array.isArray(paths)) kept['paths'] = paths.slice(0, MAX_LISTED_PATHS).filter((value) => typeof value === 'string' && value.length <= MAX_PATH_CHARS);
  for (const key of ['patchText', 'patch'] as const) {
    const value = source[key];
    if (typeof value === 'string') kept[key] = value.slice(0, MAX_PATCH_CHARS);
  }
  // A shell command names the programs and packages a session works with.
  if (typeof source['command'] === 'string') kept['command'] = source['command'].slice(0, MAX_COMMAND_CHARS);
  return kept;
}

/**
 * The file paths one tool call names in its input.
 *
 * @param tool - the tool's name (`read`, `edit`, `write`, `patch`, `list`, `glob`, `grep`, …).
 * @param input - the tool's arguments as recorded in the session.
 * @param projectRoot - the worktree, to make paths relative.
 */
export function filesFromToolInput(
  tool: string,
  input: Record<string, unknown>,
  projectRoot: string | null,
): string[] {
  const found: string[] = [];
  const add = (value: unknown): void => {
    if (typeof value !== 'string') return;
    const path = normalizeToolPath(value, projectRoot);
    if (path !== null && !found.includes(path)) found.push(path);
  };
  if (!SEARCH_TOOLS.has(tool)) for (const key of PATH_KEYS) add(input[key]);
  if (Array.isArray(input['paths'])) for (const value of input['paths'].slice(0, MAX_LISTED_PATHS)) add(value);
  const patch = input['patchText'] ?? input['patch'];
  if (typeof patch === 'string') {
    for (const line of patch.slice(0, MAX_PATCH_CHARS).split('\n')) {
      const match = PATCH_FILE_LINE.exec(line) ?? PATCH_MOVE_LINE.exec(line);
      if (match?.[1]) add(match[1]);
    }
  }
  return found;
}
