/**
 * The WriteMemory payload of a compaction: a dated folder, a title
 * that stays unique after maenifold's title sanitation, and markdown content
 * whose links sit outside code so maenifold sees them.
 */
import type { Extraction } from './extraction-engine.js';
import { projectConcept, stripTitleCharacters } from '../../core/memory/memory-format.js';
import type { NoteInput } from '../memory/memory-port.js';
import { resolveProject, type Project } from '../shared/project.js';
import { isPluginConcept } from '../shared/plugin-concepts.js';
import { cutAtBoundary } from '../../core/text/boundary-cut.js';

/** WriteMemory's note: always in a folder, always tagged. */
export interface CompactionNote extends NoteInput {
  folder: string;
  tags: string[];
}

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0');
}

/** Most entries a list of the note carries; decisions accumulate over a session, so they get more. */
const MAX_LIST_ITEMS = 10;
const MAX_DECISIONS = 20;
/** Longest entry kept, in characters. */
const MAX_ITEM_CHARS = 300;

/**
 * One list entry as plain text: on one line, without link brackets (a link
 * is the graph's to draw, not the session's text) and without backtick runs
 * that could open a code block and hide the links after it.
 */
function listItem(text: string): string {
  const plain = text.replace(/\[\[|\]\]/g, '').replace(/`{2,}/g, '`').replace(/\s+/g, ' ').trim();
  return `- ${cutAtBoundary(plain, MAX_ITEM_CHARS)}`;
}

/** Longest session id kept: OpenCode ids are about thirty characters. */
const MAX_SESSION_ID_CHARS = 100;

/**
 * The note keeps its lists under fixed headings (`## Decisions Made`, `## Open Problems`,
 * `## In Progress`, `## Problems Met`, `## Key Concepts`, `## Working Set`) that session start reads back
 * (core/memory/project-memory.ts): renaming one breaks what the next session receives.
 *
 * @param projectOrName - the project, or a name standing for one.
 * @param sessionID - the compacted session.
 * @param extraction - what the engine found.
 * @param now - the time of the compaction.
 */
export function buildCompactionNote(projectOrName: Project | string, sessionID: string, extraction: Extraction, now: Date): CompactionNote {
  const owner = typeof projectOrName === 'string' ? resolveProject(projectOrName, '') : projectOrName;
  const project = owner.name;
  // UTC, as the note's timestamp: the name orders the project's notes newest first (session start reads
  // the greatest slugs), and processes of one project may run in different time zones.
  const stamp = `${now.getUTCFullYear()}${pad(now.getUTCMonth() + 1)}${pad(now.getUTCDate())} ${pad(now.getUTCHours())}${pad(now.getUTCMinutes())}${pad(now.getUTCSeconds())}${pad(now.getUTCMilliseconds(), 3)}`;
  // OpenCode ids share their first characters (a time prefix): only the whole id tells sessions apart.
  const session = sessionID.replace(/[^A-Za-z0-9_-]/g, '').slice(0, MAX_SESSION_ID_CHARS) || 'unknown';
  // The project's key, then digits and spaces: the slug starts with `compaction-<key>-` and keeps the time,
  // so the newest notes of a project are the greatest slugs of its folder.
  const title = `Compaction ${owner.key.replace(/-/g, ' ')} ${stamp} ${session.replace(/[^A-Za-z0-9]/g, '').slice(0, 40)}`.slice(0, 180);
  const concept = projectConcept(project);
  const linked = extraction.concepts.map((concept) => concept.name).filter((name) => name && !isPluginConcept(name, project)).slice(0, 20);
  // maenifold refuses a note without a link: a session that named no topic is filed under its project.
  const concepts = (linked.length > 0 ? linked : [concept]).map((name) => `- [[${name}]]`);
  const decisions = extraction.decisions.slice(0, MAX_DECISIONS).map((decision) => listItem(`${decision.category}: ${decision.text}`));
  const problems = (extraction.observations ?? []).filter((observation) => observation.type === 'problem').slice(0, MAX_LIST_ITEMS).map((observation) => listItem(observation.text));
  // Problems met and settled or worked around: pitfalls the next session should not step into again.
  const met = (extraction.observations ?? []).filter((observation) => observation.type === 'warning').slice(0, MAX_LIST_ITEMS).map((observation) => listItem(observation.text));
  // What was in progress: the engine's next steps, then observations of the same kind it did not list.
  const listed = new Set((extraction.next ?? []).map((text) => text.trim().toLowerCase()));
  const nextObserved = (extraction.observations ?? []).filter((observation) => observation.type === 'next' && !listed.has(observation.text.trim().toLowerCase())).map((observation) => observation.text);
  const next = [...nextObserved, ...(extraction.next ?? [])].slice(-MAX_LIST_ITEMS).map(listItem);
  const files = extraction.files.map((path) => `- ${path.replace(/[`[\]]/g, '')}`);
  const content = [
    '# Compaction Summary',
    '',
    `**Session**: ${session}`,
    `**Project**: ${concept}`,
    `**Project key**: ${owner.key}`,
    `**Timestamp**: ${now.toISOString()}`,
    '',
    '## Key Concepts',
    '',
    concepts.join('\n'),
    '',
    '## Decisions Made',
    '',
    decisions.join('\n') || '_No decisions extracted_',
    '',
    ...(problems.length > 0 ? ['## Open Problems', '', problems.join('\n'), ''] : []),
    ...(next.length > 0 ? ['## In Progress', '', next.join('\n'), ''] : []),
    ...(met.length > 0 ? ['## Problems Met', '', met.join('\n'), ''] : []),
    '## Working Set',
    '',
    files.join('\n') || '_No files touched_',
    '',
    '## Session Context',
    '',
    'This summary keeps what the session learned before its context was truncated. Use BuildContext on the concepts above to restore working memory.',
    '',
  ].join('\n');
  return { title, content, folder: owner.noteFolder, tags: ['compaction', 'session', concept, owner.key] };
}
