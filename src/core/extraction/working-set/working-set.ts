/**
 * The files a session touched, read from tool-call inputs.
 *
 * Pure: no file system access. Paths are only normalized as strings, so a
 * path never leads this code to read anything. A path is a small string, so
 * its secrets are redacted here, wherever it is read: a URL-like path may
 * carry a token, and paths reach compaction notes, prompts and frame files.
 */
import { redactSecrets } from '../../text/secrets.js';
import { shellTouches, type FileAction } from '../shell/shell.js';

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
  if (raw.length > MAX_PATH_CHARS + 64) return null;
  // Before `//` collapses: `https://user:pass@host` is only recognized with both slashes.
  let path = redactSecrets(raw.trim()).text.replaceAll('\\', '/');
  if (path.length === 0 || path.length > MAX_PATH_CHARS || path.includes('\0') || path.includes('\n')) return null;
  while (path.startsWith('./')) path = path.slice(2);
  path = path.replace(/\/{2,}/g, '/');
  if (projectRoot) {
    const root = projectRoot.replaceAll('\\', '/').replace(/\/+$/, '');
    // Windows paths (`C:/Users/…`) compare without case, as the file system does.
    const fold = (value: string): string => (/^[A-Za-z]:\//.test(root) ? value.toLowerCase() : value);
    if (fold(path) === fold(root)) return '.';
    if (root.length > 0 && fold(path).startsWith(`${fold(root)}/`)) path = path.slice(root.length + 1);
  }
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  return path.length > 0 ? path : null;
}

/** Paths read from one `paths` list, and how much of a patch body is scanned for file lines. */
const MAX_LISTED_PATHS = 100;
const MAX_PATCH_CHARS = 1_000_000;
/** How much of a shell command crosses (its paths and its identity as a run are in its head). */
const MAX_COMMAND_CHARS = 8_192;
/** How much of an edit's old and new text crosses: enough to name the identifiers it changed. */
export const MAX_EDIT_TEXT_CHARS = 2_048;
/** Sub-edits of one multi-edit call that cross. */
const MAX_SUB_EDITS = 8;
const OLD_KEYS = ['oldString', 'old_string', 'old_str'] as const;
const NEW_KEYS = ['newString', 'new_string', 'new_str'] as const;

function editPair(source: Record<string, unknown>): { oldString: string; newString: string } | null {
  const oldValue = OLD_KEYS.map((key) => source[key]).find((value) => typeof value === 'string');
  const newValue = NEW_KEYS.map((key) => source[key]).find((value) => typeof value === 'string');
  if (typeof oldValue !== 'string' && typeof newValue !== 'string') return null;
  return {
    oldString: typeof oldValue === 'string' ? oldValue.slice(0, MAX_EDIT_TEXT_CHARS) : '',
    newString: typeof newValue === 'string' ? newValue.slice(0, MAX_EDIT_TEXT_CHARS) : '',
  };
}

/**
 * The arguments extraction reads, copied out of a tool's input: the path
 * keys, the first `paths`, the head of a patch body, the head of a shell
 * `command` and its `workdir`, and the heads of an edit's old and new text
 * (`oldString`/`newString`, and of the first sub-edits of a multi-edit).
 * Everything else (file contents, arbitrarily nested data) stays behind, so
 * the copy is small and flat whatever a tool was given, and can cross to a
 * worker. Strings are sliced, never walked.
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
  if (typeof source['command'] === 'string') kept['command'] = source['command'].slice(0, MAX_COMMAND_CHARS);
  for (const key of ['workdir', 'cwd'] as const) {
    const value = source[key];
    if (typeof value === 'string' && value.length <= MAX_PATH_CHARS) kept[key] = value;
  }
  const pair = editPair(source);
  if (pair) Object.assign(kept, pair);
  const edits = source['edits'];
  if (Array.isArray(edits)) {
    kept['edits'] = edits
      .slice(0, MAX_SUB_EDITS)
      .map((edit) => (typeof edit === 'object' && edit !== null && !Array.isArray(edit) ? editPair(edit as Record<string, unknown>) : null))
      .filter((edit) => edit !== null);
  }
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

/** Tools that edit a file in place, write one whole, or only look at it. Unknown tools read. */
const EDIT_TOOLS = new Set(['edit', 'multiedit', 'str_replace', 'str_replace_editor', 'str_replace_based_edit_tool', 'replace']);
const WRITE_TOOLS = new Set(['write', 'create', 'write_file', 'create_file']);
const LIST_TOOLS = new Set(['list', 'ls']);
/** Tools that change files: prose beside them describes changes made, not considered. */
export const EDIT_TOOL = /(?:^|[_.:-])(?:edit|write|patch|multiedit|apply_patch|str_replace\w*)$/i;

/** A tool whose `command` argument is a shell line. */
export const SHELL_TOOL = /bash|shell|terminal|powershell|^cmd$|exec|run_command/i;

/** One file a tool call touched and how. */
export interface ToolTouch {
  path: string;
  action: FileAction;
}

/**
 * The files one tool call touched, with how it touched them: edits, whole-file writes and patches
 * from file tools, and what a shell command line did (see `shellTouches`), relative to `projectRoot`.
 * A shell call also yields `cwd` entries: the folders it ran in, a hint of where the project lies.
 *
 * @param tool - the tool's name.
 * @param input - the tool's arguments, as {@link pathArguments} kept them.
 * @param projectRoot - the worktree, to make paths relative.
 */
export function touchesFromToolCall(tool: string, input: Record<string, unknown>, projectRoot: string | null): ToolTouch[] {
  const found: ToolTouch[] = [];
  const add = (value: string, action: FileAction): void => {
    const path = normalizeToolPath(value, projectRoot);
    if (path !== null && !found.some((touch) => touch.path === path && touch.action === action)) found.push({ path, action });
  };
  const name = tool.toLowerCase();
  const command = input['command'];
  if (typeof command === 'string' && SHELL_TOOL.test(name)) {
    const workdir = typeof input['workdir'] === 'string' ? input['workdir'] : typeof input['cwd'] === 'string' ? input['cwd'] : null;
    for (const touch of shellTouches(command, workdir)) add(touch.path, touch.action);
    return found;
  }
  const patch = input['patchText'] ?? input['patch'];
  if (typeof patch === 'string') {
    for (const line of patch.slice(0, MAX_PATCH_CHARS).split('\n')) {
      const match = PATCH_FILE_LINE.exec(line);
      if (match?.[1]) add(match[1], line.startsWith('*** Add') ? 'write' : line.startsWith('*** Delete') ? 'delete' : 'edit');
      const moved = PATCH_MOVE_LINE.exec(line);
      if (moved?.[1]) add(moved[1], 'write');
    }
  }
  const action: FileAction = EDIT_TOOLS.has(name) ? 'edit' : WRITE_TOOLS.has(name) ? 'write' : LIST_TOOLS.has(name) ? 'list' : 'read';
  for (const path of filesFromToolInput(tool, { ...input, patchText: undefined, patch: undefined }, null)) add(path, action);
  return found;
}
