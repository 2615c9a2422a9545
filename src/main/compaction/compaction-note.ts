/**
 * The WriteMemory payload of a compaction (FR-3.4): a dated folder, a title
 * that stays unique after maenifold's title sanitation, and markdown content
 * whose links sit outside code so maenifold sees them.
 */
import type { Extraction } from './extraction-engine.js';
import { projectConcept, stripTitleCharacters } from '../../core/memory/memory-format.js';
import type { NoteInput } from '../memory/memory-port.js';

/** WriteMemory's note: always in a folder, always tagged. */
export interface CompactionNote extends NoteInput {
  folder: string;
  tags: string[];
}

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0');
}

/** Words of the plugin itself: tags of every note, never links of one (they would join every note to every other). */
export const PLUGIN_CONCEPTS: readonly string[] = Object.freeze(['compaction']);

/**
 * Whether a concept is the plugin's own word or the project's name, which the
 * note carries as tags and session start never offers as context.
 *
 * @param concept - a normalized concept.
 * @param project - the project's name.
 */
export function isPluginConcept(concept: string, project: string): boolean {
  return PLUGIN_CONCEPTS.includes(concept) || concept === projectConcept(project);
}

/** Most entries a list of the note carries. */
const MAX_LIST_ITEMS = 10;
/** Longest entry kept, in characters. */
const MAX_ITEM_CHARS = 300;

/**
 * One list entry as plain text: on one line, without link brackets (a link
 * is the graph's to draw, not the session's text) and without backtick runs
 * that could open a code block and hide the links after it.
 */
function listItem(text: string): string {
  const plain = text.replace(/\[\[|\]\]/g, '').replace(/`{2,}/g, '`').replace(/\s+/g, ' ').trim();
  return `- ${plain.length > MAX_ITEM_CHARS ? `${plain.slice(0, MAX_ITEM_CHARS - 1)}…` : plain}`;
}

/** Longest session id kept: OpenCode ids are about thirty characters. */
const MAX_SESSION_ID_CHARS = 100;

/**
 * @param project - the project's name.
 * @param sessionID - the compacted session.
 * @param extraction - what the engine found.
 * @param now - the time of the compaction.
 */
export function buildCompactionNote(project: string, sessionID: string, extraction: Extraction, now: Date): CompactionNote {
  const date = `${now.getFullYear()}/${pad(now.getMonth() + 1)}/${pad(now.getDate())}`;
  const stamp = `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())} ${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}${pad(now.getMilliseconds(), 3)}`;
  // OpenCode ids share their first characters (a time prefix): only the whole id tells sessions apart.
  const session = sessionID.replace(/[^A-Za-z0-9_-]/g, '').slice(0, MAX_SESSION_ID_CHARS) || 'unknown';
  // Digits and spaces only after the project name: nothing here is stripped, so the slug keeps the time.
  const title = `Compaction ${stripTitleCharacters(project).trim() || 'project'} ${stamp} ${session.replace(/[^A-Za-z0-9]/g, '').slice(0, 40)}`.slice(0, 180);
  const concept = projectConcept(project);
  const linked = extraction.concepts.map((concept) => concept.name).filter((name) => name && !isPluginConcept(name, project)).slice(0, 20);
  // maenifold refuses a note without a link: a session that named no topic is filed under its project.
  const concepts = (linked.length > 0 ? linked : [concept]).map((name) => `- [[${name}]]`);
  const decisions = extraction.decisions.slice(0, MAX_LIST_ITEMS).map((decision) => listItem(`${decision.category}: ${decision.text}`));
  const problems = (extraction.observations ?? []).filter((observation) => observation.type === 'problem').slice(0, MAX_LIST_ITEMS).map((observation) => listItem(observation.text));
  const next = (extraction.next ?? []).slice(-MAX_LIST_ITEMS).map(listItem);
  const files = extraction.files.map((path) => `- ${path.replace(/[`[\]]/g, '')}`);
  const content = [
    '# Compaction Summary',
    '',
    `**Session**: ${session}`,
    `**Project**: ${concept}`,
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
    '## Working Set',
    '',
    files.join('\n') || '_No files touched_',
    '',
    '## Session Context',
    '',
    'This summary keeps what the session learned before its context was truncated. Use BuildContext on the concepts above to restore working memory.',
    '',
  ].join('\n');
  return { title, content, folder: `sessions/compaction/${date}`, tags: ['compaction', 'session', concept] };
}
