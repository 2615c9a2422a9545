/**
 * The working set of a whole conversation: which files the session really
 * worked on, ranked edited > written > deleted > run > read, named relative
 * to the project root.
 *
 * The root is the host's worktree when there is one. A session export read
 * on its own often has no directory, so the root is then inferred from the
 * session's own paths: the folder that holds the files it changed.
 */
import type { FileTouch } from './touches.js';
import type { FileAction } from '../shell/shell.js';

/** How much each way of touching a file says about working on it. */
const ACTION_WEIGHT: Readonly<Record<FileAction, number>> = Object.freeze({ edit: 5, write: 4, delete: 3, run: 2, read: 1, list: 0.5, cwd: 0 });

/** Scratch and tool-owned locations: never the work itself. */
const NOT_PROJECT = /^(?:\/tmp\/|\/var\/tmp\/|\/private\/(?:tmp|var)\/|\/dev\/|\/proc\/)|\/appdata\/local\/temp\/|(?:^|\/)(?:node_modules|\.git|__pycache__|site-packages|\.venv)\//i;

/** Generated output and caches: what the build wrote, not what the session worked on. */
const BUILD_OUTPUT = /(?:^|\/)(?:node_modules|\.git|dist|\.next|coverage|\.pytest_cache|\.turbo|\.cache)(?:\/|$)/;

/** Files whose folder is a project's root. */
const ROOT_MARKERS = new Set([
  'package.json', 'pyproject.toml', 'setup.py', 'requirements.txt', 'pom.xml', 'build.gradle', 'build.gradle.kts', 'settings.gradle',
  'go.mod', 'cargo.toml', 'composer.json', 'gemfile', 'makefile', 'cmakelists.txt', 'deno.json', 'tsconfig.json', 'angular.json',
  'readme.md', 'agents.md', 'claude.md', '.gitignore', '.env', 'docker-compose.yml', 'pubspec.yaml', 'mix.exs',
]);

/**
 * Paths in code-unit order: the same on every machine, and without `localeCompare`, whose first call
 * loads a collator (about 8 ms in each worker under Node).
 */
const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const isAbsolute = (path: string): boolean => path.startsWith('/') || /^[A-Za-z]:\//.test(path);
/** Windows paths compare without case. */
const fold = (path: string): string => (/^[A-Za-z]:\//.test(path) ? path.toLowerCase() : path);
const parentOf = (path: string): string => {
  const cut = path.lastIndexOf('/');
  return cut <= 0 ? (cut === 0 ? '/' : '') : path.slice(0, cut);
};

/** The deepest folder holding every one of `folders` (given as folder paths), or '' when they share none. */
function commonFolder(folders: readonly string[]): string {
  let common: string[] | null = null;
  for (const folder of folders) {
    const parts = folder.split('/');
    if (common === null) {
      common = parts;
      continue;
    }
    let length = 0;
    while (length < common.length && length < parts.length && fold(common[length] ?? '') === fold(parts[length] ?? '')) length++;
    common = common.slice(0, length);
  }
  return common === null ? '' : common.join('/');
}

/**
 * The project root a session's absolute paths imply.
 *
 * The folder that holds every file the session changed (edited, wrote, deleted) — or, when it changed
 * none, every file it touched. When the session ran commands in that folder or above it (a shell
 * `workdir`, `cd`), the shallowest such folder is the root. Otherwise that folder is the root when a
 * project file lies in it (`package.json`, `pom.xml`, `README.md` …), and else the root is one level
 * up, so paths keep that folder's name: a session that only touched `src/` must not lose the `src/`.
 *
 * @param touches - every file touch of the conversation, `cwd` entries included.
 * @returns the root without a trailing slash, or `null` when the paths are relative or share no folder.
 */
export function inferProjectRoot(touches: readonly FileTouch[]): string | null {
  const files = touches.filter((touch) => touch.action !== 'cwd' && isAbsolute(touch.path) && !NOT_PROJECT.test(touch.path));
  if (files.length === 0) return null;
  const changed = files.filter((touch) => ACTION_WEIGHT[touch.action ?? 'read'] >= ACTION_WEIGHT.delete);
  const basis = changed.length > 0 ? changed : files;
  const common = commonFolder(basis.map((touch) => parentOf(touch.path)));
  if (common.split('/').filter(Boolean).length < 2) return null;
  const at = fold(common);
  // A folder the session ran commands in that holds the changed files is where it works from: the
  // shallowest such one (`cd repo && …` while editing `repo/tests/x`).
  const ranAbove = touches
    .filter((touch) => touch.action === 'cwd')
    .map((touch) => touch.path.replace(/\/+$/, ''))
    .filter((folder) => folder.split('/').filter(Boolean).length >= 2 && (at === fold(folder) || at.startsWith(`${fold(folder)}/`)))
    .sort((a, b) => a.length - b.length)[0];
  if (ranAbove !== undefined) return ranAbove;
  const markerThere = files.some((touch) => fold(parentOf(touch.path)) === at && ROOT_MARKERS.has((touch.path.split('/').pop() ?? '').toLowerCase()));
  return markerThere ? common : parentOf(common);
}

/**
 * `path` relative to `root` when it lies under it.
 *
 * @param path - a normalized path (forward slashes).
 * @param root - a folder, or `null` to keep `path`.
 */
export function relativeTo(path: string, root: string | null): string {
  if (root === null || root === '/' || root === '') return path;
  const prefix = `${fold(root)}/`;
  return fold(path).startsWith(prefix) ? path.slice(prefix.length) : path;
}

/** Tier of each way of touching a file: a file changed outranks one run, which outranks one only read. */
const TIER: Readonly<Record<FileAction, number>> = Object.freeze({ edit: 3, write: 3, delete: 3, run: 2, read: 1, list: 0, cwd: -1 });
/** Share of a touch's weight it keeps however old it is; the rest halves every {@link recencyHalfLife} positions. */
const RECENCY_FLOOR = 0.4;
const recencyHalfLife = (latest: number): number => Math.max(10, latest / 4);

/**
 * The files worked on, best first: by tier (changed — edited, written, deleted — then run, then read,
 * then listed), and within a tier by how much and how recently: the sum over its touches of the
 * action's weight (edit 5 > write 4 > delete 3 > run 2 > read 1), each decayed by age toward a floor.
 * So among changed files one edited often or lately leads, an edit outweighs a whole-file write of the
 * same age, and a file changed once at the very start yields to one created near the end. Folders a
 * command merely ran in, scratch files (`/tmp`), dependencies, build output and VCS internals are left out.
 *
 * @param touches - every file touch of the conversation.
 * @param max - how many to keep.
 * @param root - the project root paths are made relative to, or `null`.
 * @returns one touch per path (its latest, with its strongest action), relative to `root`.
 */
export function rankWorkingSet(touches: readonly FileTouch[], max: number, root: string | null): FileTouch[] {
  const latest = touches.reduce((most, touch) => Math.max(most, touch.order), 0);
  const halfLife = recencyHalfLife(latest);
  const byPath = new Map<string, { touch: FileTouch; tier: number; score: number }>();
  for (const touch of touches) {
    const action = touch.action ?? 'read';
    if (action === 'cwd' || NOT_PROJECT.test(touch.path) || BUILD_OUTPUT.test(touch.path)) continue;
    const path = relativeTo(touch.path, root);
    if (path === '.' || path === '' || path === root) continue;
    const score = ACTION_WEIGHT[action] * (RECENCY_FLOOR + (1 - RECENCY_FLOOR) * 0.5 ** (Math.max(0, latest - touch.order) / halfLife));
    const known = byPath.get(fold(path));
    if (!known) {
      byPath.set(fold(path), { touch: { ...touch, path, action }, tier: TIER[action], score });
      continue;
    }
    known.score += score;
    const strongest = ACTION_WEIGHT[action] > ACTION_WEIGHT[known.touch.action ?? 'read'] ? action : known.touch.action;
    known.tier = Math.max(known.tier, TIER[action]);
    if (touch.order >= known.touch.order) known.touch = { ...touch, path: known.touch.path };
    known.touch.action = strongest;
  }
  return [...byPath.values()]
    .sort((a, b) => b.tier - a.tier || b.score - a.score || b.touch.order - a.touch.order || byCodeUnits(a.touch.path, b.touch.path))
    .slice(0, Math.max(0, max))
    .map((entry) => entry.touch);
}
