/**
 * Where a project's digest lives: one note in the project's folder of
 * compaction notes, `memory-digest-<key>`, whose slug does not start with the
 * compaction notes' prefix, so nothing that reads the notes takes it for one.
 */
import { noteLocation } from '../../../core/memory/memory-format.js';
import type { Project } from '../../shared/project.js';

/** The digest note's title, folder and URI. */
export interface DigestNote {
  title: string;
  folder: string;
  uri: string;
}

/**
 * @param project - whose digest.
 */
export function digestNote(project: Project): DigestNote {
  // The key's hyphens as spaces: maenifold's title sanitation drops hyphens, the slug puts them back.
  const title = `Memory digest ${project.key.replace(/-/g, ' ')}`;
  return { title, folder: project.noteFolder, uri: noteLocation(project.noteFolder, title).uri };
}
