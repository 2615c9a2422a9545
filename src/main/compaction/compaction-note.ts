/**
 * The WriteMemory payload of a compaction: a dated folder, a title
 * that stays unique after maenifold's title sanitation, and markdown content
 * whose links sit outside code so maenifold sees them.
 */
import type { Extraction } from './extraction-engine.js';
import { projectConcept } from '../../core/memory/memory-format.js';
import { ITEM_KINDS, type ItemKind, type MemoryItem } from '../../core/memory/item-kinds.js';
import { sessionNoteContent } from '../../core/memory/session-note.js';
import type { NoteInput } from '../memory/memory-port.js';
import { resolveProject, type Project } from '../shared/project.js';
import { isPluginConcept } from '../shared/plugin-concepts.js';

/** WriteMemory's note: always in a folder, always tagged. */
export interface CompactionNote extends NoteInput {
  folder: string;
  tags: string[];
}

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0');
}

/** Longest session id kept: OpenCode ids are about thirty characters. */
const MAX_SESSION_ID_CHARS = 100;

/** The note's name and place: a dated folder, and a title that orders the project's notes by time. */
function noteName(owner: Project, sessionID: string, now: Date): { title: string; session: string } {
  // UTC, as the note's timestamp: the name orders the project's notes newest first (session start reads
  // the greatest slugs), and processes of one project may run in different time zones.
  const stamp = `${now.getUTCFullYear()}${pad(now.getUTCMonth() + 1)}${pad(now.getUTCDate())} ${pad(now.getUTCHours())}${pad(now.getUTCMinutes())}${pad(now.getUTCSeconds())}${pad(now.getUTCMilliseconds(), 3)}`;
  // OpenCode ids share their first characters (a time prefix): only the whole id tells sessions apart.
  const session = sessionID.replace(/[^A-Za-z0-9_-]/g, '').slice(0, MAX_SESSION_ID_CHARS) || 'unknown';
  // The project's key, then digits and spaces: the slug starts with `compaction-<key>-` and keeps the time,
  // so the newest notes of a project are the greatest slugs of its folder.
  const title = `Compaction ${owner.key.replace(/-/g, ' ')} ${stamp} ${session.replace(/[^A-Za-z0-9]/g, '').slice(0, 40)}`.slice(0, 180);
  return { title, session };
}

/**
 * What the extraction found, as the session's extracted items.
 *
 * @param project - the project's name: its own concept is not a topic of the session.
 * @param extraction - what the engine found.
 */
export function extractedItems(project: string, extraction: Extraction): MemoryItem[] {
  const item = (kind: ItemKind, text: string): MemoryItem => ({ kind, text, source: 'heuristic' });
  const concepts = extraction.concepts.map((concept) => concept.name).filter((name) => name && !isPluginConcept(name, project)).slice(0, ITEM_KINDS.concept.maxInNote);
  // What the compaction prompt kept first, then what its budget had no room for: the note is not that prompt.
  const observations = [...(extraction.observations ?? []), ...(extraction.unbudgeted ?? [])];
  // What was in progress: the engine's next steps, then observations of the same kind it did not list;
  // the newest last in the session, so the newest first in the note (the block shows the note's first).
  const listed = new Set((extraction.next ?? []).map((text) => text.trim().toLowerCase()));
  const nextObserved = observations.filter((observation) => observation.type === 'next' && !listed.has(observation.text.trim().toLowerCase())).map((observation) => observation.text);
  return [
    ...concepts.map((name) => item('concept', name)),
    ...extraction.decisions.map((decision) => item('decision', `${decision.category}: ${decision.text}`)),
    ...observations.filter((observation) => observation.type === 'problem').map((observation) => item('problem', observation.text)),
    ...[...nextObserved, ...(extraction.next ?? [])].slice(-ITEM_KINDS.next.maxInNote).reverse().map((text) => item('next', text)),
    // Problems met and settled or worked around: pitfalls the next session should not step into again.
    ...observations.filter((observation) => observation.type === 'warning').map((observation) => item('met', observation.text)),
    ...extraction.files.map((path) => item('file', path)),
  ];
}

/**
 * A session's note with these items: same folder, title scheme and tags as every compaction note, content
 * by session-note.ts. A note written later for the same session supersedes the earlier ones.
 *
 * @param owner - the project.
 * @param sessionID - the session.
 * @param items - extracted and model items.
 * @param now - the note's time.
 */
export function buildSessionNote(owner: Project, sessionID: string, items: readonly MemoryItem[], now: Date): CompactionNote {
  const { title, session } = noteName(owner, sessionID, now);
  const concept = projectConcept(owner.name);
  // maenifold refuses a note without a link: a session that named no topic is filed under its project.
  const withTopic = items.some((item) => item.kind === 'concept') ? items : [{ kind: 'concept' as const, text: concept, source: 'heuristic' as const }, ...items];
  const content = sessionNoteContent({ session, projectConcept: concept, projectKey: owner.key, timestamp: now.toISOString() }, withTopic);
  return { title, content, folder: owner.noteFolder, tags: ['compaction', 'session', concept, owner.key] };
}

/**
 * The note keeps its lists under fixed headings (item-kinds.ts) that session start reads back
 * (core/memory/session-note.ts): renaming one breaks what the next session receives.
 *
 * @param projectOrName - the project, or a name standing for one.
 * @param sessionID - the compacted session.
 * @param extraction - what the engine found.
 * @param now - the time of the compaction.
 */
export function buildCompactionNote(projectOrName: Project | string, sessionID: string, extraction: Extraction, now: Date): CompactionNote {
  const owner = typeof projectOrName === 'string' ? resolveProject(projectOrName, '') : projectOrName;
  return buildSessionNote(owner, sessionID, extractedItems(owner.name, extraction), now);
}
