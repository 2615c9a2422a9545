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
 * chain; session start and task context leave out what carries another
 * project's key (sessionMemoryOwner).
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

/** A project's key as {@link resolveProject} makes it: a name slug, then a hyphen and 8 hex digits. */
const KEY = '[a-z0-9]+(?:-[a-z0-9]+)*-[0-9a-f]{8}';

/** The UTC date and the time to the millisecond a compaction note's slug holds after its project (then its session). */
const STAMP = '\\d{8}-\\d{9}(?:-|$)';

/** The slug of a compaction note (and of the note that supersedes it): the key, the stamp, the session. */
const COMPACTION_SLUG = new RegExp(`^compaction-(${KEY})-${STAMP}`);

/** The slug of a compaction note of the first releases: the project's name where the key is now. */
const UNKEYED_COMPACTION_SLUG = new RegExp(`^compaction-[a-z0-9-]+-${STAMP}`);

/** The slug of a project's memory digest. */
const DIGEST_SLUG = new RegExp('^memory-digest-(' + KEY + ')$');

/** A project's folder of notes, below {@link COMPACTION_FOLDER}. */
const KEY_FOLDER = new RegExp(`^memory://${COMPACTION_FOLDER}/(${KEY})/`);

/** The first releases' dated folders, below {@link COMPACTION_FOLDER}. */
const DATED_FOLDER = new RegExp(`^memory://${COMPACTION_FOLDER}/\\d{4}/\\d{2}/\\d{2}/`);

/**
 * Whose session memory a note is: a project's (`project`, by its key); the plugin's, of a project its
 * first releases named by its name alone, which two folders of one name share (`unkeyed`); or no
 * project's session memory (`none`): a person's notes, another tool's.
 */
export type SessionMemoryOwner = { kind: 'project'; key: string } | { kind: 'unkeyed' } | { kind: 'none' };

/**
 * Whose session memory a note is, told by where the plugin files it and how it names it: a note in a
 * project's folder (`sessions/compaction/<key>/…`), or a note whose slug is the plugin's
 * (`compaction-<key>-<date>-<time>-<session>`, `memory-digest-<key>`) wherever it lies; the first
 * releases' dated folders (`sessions/compaction/YYYY/MM/DD/…`) and slugs are `unkeyed`. Never by what a
 * note says: a note of one project that names another is still its own project's. Another tool's notes
 * beside the folders (`sessions/compaction/<slug>`) are `none`.
 *
 * @param uriOrSlug - a `memory://` URI, or a note's slug as RecentActivity names it.
 */
export function sessionMemoryOwner(uriOrSlug: string): SessionMemoryOwner {
  const folder = KEY_FOLDER.exec(uriOrSlug)?.[1];
  if (folder) return { kind: 'project', key: folder };
  if (DATED_FOLDER.test(uriOrSlug)) return { kind: 'unkeyed' };
  const slug = uriOrSlug.slice(uriOrSlug.lastIndexOf('/') + 1);
  const key = COMPACTION_SLUG.exec(slug)?.[1] ?? DIGEST_SLUG.exec(slug)?.[1];
  if (key) return { kind: 'project', key };
  return UNKEYED_COMPACTION_SLUG.test(slug) ? { kind: 'unkeyed' } : { kind: 'none' };
}
