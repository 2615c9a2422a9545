/**
 * The WriteMemory payload of a compaction (FR-3.4): a dated folder, a title
 * that stays unique after maenifold's title sanitation, and markdown content
 * whose links sit outside code so maenifold sees them.
 */
import type { Extraction } from './extraction-engine.js';
import { normalizeConcept } from '../workers/stages/concepts.js';

/** WriteMemory's payload. */
export interface CompactionNote {
  title: string;
  content: string;
  folder: string;
  tags: string[];
}

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0');
}

// maenifold strips these from titles (and ".."); control characters go too.
const TITLE_STRIPPED = /[:|>\-[\]{}#&*!@`'$();"<>\\/\u0000-\u001f\u007f]|\.\./g;

/**
 * @param project - the project's name.
 * @param sessionID - the compacted session.
 * @param extraction - what the engine found.
 * @param now - the time of the compaction.
 */
export function buildCompactionNote(project: string, sessionID: string, extraction: Extraction, now: Date): CompactionNote {
  const date = `${now.getFullYear()}/${pad(now.getMonth() + 1)}/${pad(now.getDate())}`;
  const stamp = `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())} ${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}${pad(now.getMilliseconds(), 3)}`;
  const session = sessionID.replace(/[^A-Za-z0-9]/g, '').slice(0, 12);
  // Digits and spaces only after the project name: nothing here is stripped, so the slug keeps the time.
  const title = `Compaction ${project.replace(TITLE_STRIPPED, '').trim() || 'project'} ${stamp} ${session}`.slice(0, 180);
  const projectConcept = normalizeConcept(project) || 'project';
  const concepts = extraction.concepts.slice(0, 20).map((concept) => `- [[${concept.name}]]`);
  const decisions = extraction.decisions.slice(0, 10).map((decision) => `- ${decision.category}: ${decision.text}`);
  const files = extraction.files.map((path) => `- ${path.replace(/[`[\]]/g, '')}`);
  const content = [
    '# Compaction Summary',
    '',
    `**Session**: ${sessionID.slice(0, 8)}`,
    `**Project**: [[${projectConcept}]]`,
    `**Timestamp**: ${now.toISOString()}`,
    '',
    '## Key Concepts',
    '',
    concepts.join('\n') || '_No concepts extracted_',
    '',
    '## Decisions Made',
    '',
    decisions.join('\n') || '_No decisions extracted_',
    '',
    '## Working Set',
    '',
    files.join('\n') || '_No files touched_',
    '',
    '## Session Context',
    '',
    'This [[compaction]] summary keeps what the session learned before its context was truncated. Use BuildContext on the concepts above to restore working memory.',
    '',
  ].join('\n');
  return { title, content, folder: `sessions/compaction/${date}`, tags: ['compaction', 'session', projectConcept] };
}
