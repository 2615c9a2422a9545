/**
 * Which project a session belongs to, and where that project's memory lives.
 *
 * A name alone does not tell projects apart: two folders called `api` on one
 * machine are two projects, and both would write `[[api]]`. So a project is
 * its name plus a short hash of what anchors it: the real path of its
 * worktree, made independent of the route to it (symbolic links resolved,
 * and a bind mount mapped back to the mount of its file system's root,
 * checked by device and inode: folder-identity.ts), so two routes to one
 * folder are one project; or, when the `project` option names it, that name
 * itself (every folder given the same name shares one memory, on purpose: worktrees of one
 * repository, a monorepo's packages). The key names the project's folder of
 * compaction notes, is the start of each note's slug, and keys its summary
 * chain; session start and task context read only what carries it.
 */
import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { projectConcept, slugify } from '../../core/memory/memory-format.js';
import { routeIndependentPath } from './folder-identity.js';

/** Where compaction notes are kept, one folder per project below it. */
export const COMPACTION_FOLDER = 'sessions/compaction';

/** A project and the names of its memory. */
export interface Project {
  /** As people call it: the folder's name or the `project` option. */
  name: string;
  /** Stable identity: `<name slug>-<8 hex digits>`; unique per worktree (or per explicit name). */
  key: string;
  /** The concept its notes link and are tagged with. */
  concept: string;
  /** The folder of its compaction notes: `sessions/compaction/<key>`. */
  noteFolder: string;
  /** What the slug of each of its notes starts with (`compaction-<key>-`), so a note's id tells its project. */
  noteSlugPrefix: string;
  /** What anchors the key: the worktree's route-independent real path, or `name:<name>` for an explicit name. */
  anchor: string;
}

/**
 * The folder's path as every route to it gives it. Keys were derived from the real path before bind
 * mounts were mapped, and stay so for every folder reached through a mount of its file system's root:
 * only a second route (a bind mount of the folder or of a folder above it) now gives the first route's
 * key instead of one of its own. Deriving the key from the device and inode themselves would need no
 * table, but would give every existing project a new key, and device numbers change across reboots
 * and machines where paths do not.
 */
function anchorPath(folder: string): string {
  let real: string;
  try {
    real = realpathSync(folder);
  } catch {
    // A folder that cannot be resolved (gone, unreadable) still names one place.
    return resolve(folder);
  }
  return routeIndependentPath(real);
}

/**
 * @param explicitName - the `project` option; empty when the folder names the project.
 * @param worktree - the project's worktree (OpenCode's `worktree`, else its directory).
 */
export function resolveProject(explicitName: string, worktree: string): Project {
  const folder = anchorPath(worktree);
  const folderName = folder.split(/[\\/]/).filter(Boolean).at(-1) ?? '';
  const name = explicitName.trim() || folderName || 'project';
  const anchor = explicitName.trim() ? `name:${name}` : folder;
  const hash = createHash('sha256').update(anchor).digest('hex').slice(0, 8);
  // Only [a-z0-9-]: written into a title with its hyphens as spaces, the key survives maenifold's title
  // sanitation and comes back whole in the note's slug.
  const slug = slugify(name).slice(0, 40).replace(/-+$/, '');
  const nameSlug = slug && slug !== 'untitled' ? slug : 'project';
  const key = `${nameSlug}-${hash}`;
  return {
    name,
    key,
    concept: projectConcept(name),
    noteFolder: `${COMPACTION_FOLDER}/${key}`,
    noteSlugPrefix: `compaction-${key}-`,
    anchor,
  };
}

/** Which memory session start and task context may read. */
export type MemoryScope = 'project' | 'all';

/**
 * Whether a memory URI belongs to the project: one of its compaction notes,
 * or a thought session of its summary chain.
 *
 * @param project - the project.
 * @param uri - a `memory://` URI.
 * @param chainId - the project's summary chain, when it has one.
 */
export function isProjectUri(project: Project, uri: string, chainId: string | null): boolean {
  if (uri.startsWith(`memory://${project.noteFolder}/`)) return true;
  return chainId !== null && (uri === chainId || uri.endsWith(`/${chainId}`));
}
