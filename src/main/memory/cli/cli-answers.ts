/**
 * maenifold's answers read once, into the port's data: BuildContext's,
 * RecentActivity's and ListMemories' text, and the envelope `data` of the
 * JSON tools. What a stored note holds is data: names are made printable
 * and URIs checked here, so nothing read can add lines of its own to what
 * is later printed from it. Pure.
 */
import { isPrintableUri, printableConcept } from '../../../core/memory/memory-format.js';
import type { ActivityItem, ActivitySection, Relation, SearchHit, StoredNote, ThoughtReceipt, WrittenNote } from '../../../core/memory/memory-answers.js';

const HEADER = /^Context for CONCEPT:/m;
const DIRECT = /^Direct relations \((\d+) CONCEPTS?\):/m;
const RELATION = /^\s*\u2022\s*(.+?)\s+\(co-occurs in (\d+) files?\)/;
const FILES = /^\s+Files:\s*(.*)$/;

/** Most relations read from one answer. */
export const MAX_RELATIONS = 50;

/**
 * The Direct relations of a BuildContext answer. The list ends at the next
 * section heading (Expanded relations, Community siblings) or at any line
 * that is not of it; names are made printable (a relation left without a
 * name is dropped) and only printable URIs are kept, three at most.
 *
 * @param text - BuildContext's stdout.
 * @returns `null` when the text is not a BuildContext answer; no relations when it declares none.
 */
export function parseBuildContext(text: string): Relation[] | null {
  if (!HEADER.test(text)) return null;
  const direct = DIRECT.exec(text);
  if (!direct || Number(direct[1]) === 0) return [];
  const relations: Relation[] = [];
  for (const line of text.slice(direct.index + direct[0].length).split('\n')) {
    if (/^\S/.test(line) && line.trim() !== '') break;
    const match = RELATION.exec(line);
    if (match) {
      if (relations.length >= MAX_RELATIONS) break;
      const name = printableConcept(match[1] ?? '');
      if (name) relations.push({ name, cooccurrence: Number(match[2]), files: [] });
      continue;
    }
    const files = FILES.exec(line);
    const last = relations.at(-1);
    if (files && last && last.files.length === 0) {
      last.files = (files[1] ?? '').split(',').map((uri) => uri.trim()).filter(isPrintableUri).slice(0, 3);
    }
  }
  return relations;
}

const BLOCK = /^\*\*(.+?)\*\* \(([^)]*)\)\s*$/;
const FIELD = /^ {2}(Modified|Title|Status|Thoughts|Steps|Sections|First H2 Content|First H2|First|Last H2 Content|Last H2|Last): ?(.*)$/;

function unquote(value: string): string {
  return value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
}

/**
 * RecentActivity's blocks (`**<id>** (<kind>)` and its `  Field: value`
 * lines). A line that is none of these continues the field before it (a
 * whole section's content spans lines), so no text of a block is lost.
 *
 * @param text - RecentActivity's stdout ("No recent activity found" and "No database found" give none).
 */
export function parseRecentActivity(text: string): ActivityItem[] {
  const items: ActivityItem[] = [];
  let item: ActivityItem | undefined;
  let extend: ((line: string) => void) | undefined;
  const section = (which: 'first' | 'last'): ActivitySection => ((item as ActivityItem)[which] ??= { content: '' });
  const append = (previous: string | undefined, value: string): string => (previous === undefined || previous === '' ? value : `${previous}\n${value}`);
  for (const line of text.split('\n')) {
    const block = BLOCK.exec(line);
    if (block) {
      item = { id: block[1] ?? '', kind: block[2] ?? '' };
      items.push(item);
      extend = undefined;
      continue;
    }
    if (!item) continue;
    const current = item;
    const field = FIELD.exec(line);
    if (!field) {
      extend?.(line);
      continue;
    }
    const [, key, value = ''] = field;
    const set = (write: (line: string) => void): void => {
      write(value);
      extend = write;
    };
    if (key === 'Modified') set((part) => (current.modified = append(current.modified, part)));
    else if (key === 'Title') set((part) => (current.title = append(current.title, part)));
    else if (key === 'Status') set((part) => (current.status = append(current.status, part)));
    else if (key === 'First H2' || key === 'Last H2') {
      const target = section(key === 'First H2' ? 'first' : 'last');
      set((part) => (target.heading = append(target.heading, part)));
    } else if (key === 'First H2 Content' || key === 'Last H2 Content' || key === 'First' || key === 'Last') {
      const target = section(key.startsWith('First') ? 'first' : 'last');
      const snippet = key === 'First' || key === 'Last';
      set((part) => (target.content = append(target.content, snippet ? unquote(part) : part)));
    } else extend = undefined; // Counts (Thoughts, Steps, Sections) carry no text.
  }
  for (const found of items) {
    for (const part of [found.first, found.last]) if (part) part.content = part.content.trimEnd();
  }
  return items;
}

const LISTED = /^\s*-\s+(memory:\/\/\S.*?)\s*$/;

/**
 * The note URIs of a ListMemories answer (sub-folders, listed as `name/`, are left out).
 *
 * @param text - ListMemories' stdout.
 */
export function parseListing(text: string): string[] {
  return text.split('\n').flatMap((line) => {
    const match = LISTED.exec(line);
    return match?.[1] ? [match[1]] : [];
  });
}

const record = (value: unknown): Record<string, unknown> => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {});
const score = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/**
 * SearchMemories' `data.results`; a hit's fields that are not text read as their text form.
 *
 * @param data - the envelope's `data`.
 */
export function readSearchHits(data: unknown): SearchHit[] {
  const results = record(data)['results'];
  if (!Array.isArray(results)) return [];
  return results.map((raw) => {
    const hit = record(raw);
    return {
      title: String(hit['title'] ?? ''),
      path: String(hit['path'] ?? ''),
      fusedScore: score(hit['fusedScore']),
      textScore: score(hit['textScore']),
      semanticScore: score(hit['semanticScore']),
      snippet: String(hit['snippet'] ?? ''),
    };
  });
}

/**
 * WriteMemory's `data`.
 *
 * @param data - the envelope's `data`.
 */
export function readWrittenNote(data: unknown): WrittenNote {
  const uri = record(data)['uri'];
  return { uri: typeof uri === 'string' ? uri : null };
}

/**
 * SequentialThinking's `data`.
 *
 * @param data - the envelope's `data`.
 */
export function readThoughtReceipt(data: unknown): ThoughtReceipt {
  const { sessionId, thoughtNumber } = record(data);
  return { sessionId: typeof sessionId === 'string' ? sessionId : null, thoughtNumber: typeof thoughtNumber === 'number' ? thoughtNumber : null };
}

/**
 * ReadMemory's `data`.
 *
 * @param data - the envelope's `data`.
 * @param asked - the URI asked for, when the answer does not name one.
 */
export function readStoredNote(data: unknown, asked: string): StoredNote {
  const { uri, title, content } = record(data);
  return { uri: typeof uri === 'string' ? uri : asked, title: typeof title === 'string' ? title : '', content: typeof content === 'string' ? content : '' };
}

/**
 * A duration as a .NET TimeSpan, as RecentActivity takes it: `d.hh:mm:ss`, or `hh:mm:ss` under a day.
 *
 * @param ms - the duration (whole seconds are kept).
 */
export function formatTimeSpan(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  const days = Math.floor(seconds / 86_400);
  const pad = (value: number): string => String(value).padStart(2, '0');
  const clock = `${pad(Math.floor((seconds % 86_400) / 3_600))}:${pad(Math.floor((seconds % 3_600) / 60))}:${pad(seconds % 60)}`;
  return days > 0 ? `${days}.${clock}` : clock;
}
